// A small JSON reader for manifest.json: the whole of RFC 8259, no writer.
// Self-written so that the runtime needs nothing but the CUDA toolkit.
#ifndef TILEOPT_RUNTIME_JSON_H
#define TILEOPT_RUNTIME_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tileopt::json {

enum class Kind { Null, Bool, Number, String, Array, Object };

// The JSON name of a kind ("object", "number", ...), for messages.
const char *kindName(Kind kind);

struct Value {
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  // Numbers written without fraction or exponent that fit in int64 are also
  // kept exactly here, so sizes such as 2^53 + 1 do not lose digits.
  bool isInteger = false;
  int64_t integer = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object; // in document order

  // The member named `key` of an object, or null if absent.
  const Value *find(std::string_view key) const;
};

// Parses one JSON document. On failure returns false and sets `error` to
// "line L, column C: <what>". Duplicate object keys are an error, since a
// manifest that says two things at once is ambiguous.
bool parse(std::string_view text, Value &out, std::string &error);

} // namespace tileopt::json

#endif // TILEOPT_RUNTIME_JSON_H
