#include "Json.h"

#include <cerrno>
#include <cstdlib>

namespace tileopt::json {

const char *kindName(Kind kind) {
  switch (kind) {
  case Kind::Null: return "null";
  case Kind::Bool: return "boolean";
  case Kind::Number: return "number";
  case Kind::String: return "string";
  case Kind::Array: return "array";
  case Kind::Object: return "object";
  }
  return "?";
}

const Value *Value::find(std::string_view key) const {
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

namespace {

// Deep enough for any manifest; bounds the recursion on hostile input.
constexpr int kMaxDepth = 64;

class Parser {
public:
  Parser(std::string_view text, std::string &error) : text(text), error(error) {}

  bool document(Value &out) {
    skipSpace();
    if (!value(out, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the JSON value");
    return true;
  }

private:
  std::string_view text;
  std::string &error;
  size_t pos = 0;

  bool fail(const std::string &what) { return failAt(pos, what); }

  bool failAt(size_t at, const std::string &what) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error = "line " + std::to_string(line) + ", column " +
            std::to_string(column) + ": " + what;
    return false;
  }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return text[pos]; }

  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      ++pos;
  }

  bool literal(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return fail("invalid literal (expected '" + std::string(word) + "')");
    pos += word.size();
    return true;
  }

  bool value(Value &out, int depth) {
    if (atEnd())
      return fail("unexpected end of input, expected a value");
    switch (peek()) {
    case '{': return object(out, depth);
    case '[': return array(out, depth);
    case '"': out.kind = Kind::String; return string(out.string);
    case 't': out.kind = Kind::Bool; out.boolean = true; return literal("true");
    case 'f': out.kind = Kind::Bool; out.boolean = false; return literal("false");
    case 'n': out.kind = Kind::Null; return literal("null");
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return number(out);
      return fail(std::string("unexpected character '") + peek() + "'");
    }
  }

  bool object(Value &out, int depth) {
    if (depth >= kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth));
    out.kind = Kind::Object;
    ++pos; // '{'
    skipSpace();
    if (!atEnd() && peek() == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (atEnd() || peek() != '"')
        return fail("expected a string key");
      size_t keyPos = pos;
      std::string key;
      if (!string(key))
        return false;
      if (out.find(key))
        return failAt(keyPos, "duplicate key \"" + key + "\"");
      skipSpace();
      if (atEnd() || peek() != ':')
        return fail("expected ':' after a key");
      ++pos;
      skipSpace();
      Value member;
      if (!value(member, depth + 1))
        return false;
      out.object.emplace_back(std::move(key), std::move(member));
      skipSpace();
      if (atEnd())
        return fail("unexpected end of input in an object");
      if (peek() == '}') {
        ++pos;
        return true;
      }
      if (peek() != ',')
        return fail("expected ',' or '}' in an object");
      ++pos;
    }
  }

  bool array(Value &out, int depth) {
    if (depth >= kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth));
    out.kind = Kind::Array;
    ++pos; // '['
    skipSpace();
    if (!atEnd() && peek() == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      Value element;
      if (!value(element, depth + 1))
        return false;
      out.array.push_back(std::move(element));
      skipSpace();
      if (atEnd())
        return fail("unexpected end of input in an array");
      if (peek() == ']') {
        ++pos;
        return true;
      }
      if (peek() != ',')
        return fail("expected ',' or ']' in an array");
      ++pos;
    }
  }

  bool hex4(uint32_t &out) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      out <<= 4;
      if (c >= '0' && c <= '9') out |= c - '0';
      else if (c >= 'a' && c <= 'f') out |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') out |= c - 'A' + 10;
      else return fail("invalid hex digit in a \\u escape");
    }
    return true;
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  bool string(std::string &out) {
    ++pos; // '"'
    while (true) {
      if (atEnd())
        return fail("unterminated string");
      char c = text[pos++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return failAt(pos - 1, "control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (atEnd())
        return fail("unterminated string");
      char e = text[pos++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp = 0;
        if (!hex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t low = 0;
          if (text.substr(pos, 2) != "\\u")
            return fail("unpaired surrogate in a \\u escape");
          pos += 2;
          if (!hex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("unpaired surrogate in a \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail("unpaired surrogate in a \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        return failAt(pos - 1, std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool digits() {
    size_t start = pos;
    while (!atEnd() && peek() >= '0' && peek() <= '9')
      ++pos;
    return pos > start;
  }

  bool number(Value &out) {
    size_t start = pos;
    bool integral = true;
    if (peek() == '-')
      ++pos;
    if (!atEnd() && peek() == '0') {
      ++pos; // JSON forbids leading zeros
    } else if (!digits()) {
      return fail("invalid number");
    }
    if (!atEnd() && peek() == '.') {
      integral = false;
      ++pos;
      if (!digits())
        return fail("expected digits after '.'");
    }
    if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
      integral = false;
      ++pos;
      if (!atEnd() && (peek() == '+' || peek() == '-'))
        ++pos;
      if (!digits())
        return fail("expected digits in the exponent");
    }
    // strtod/strtoll need a terminated string; numbers are short.
    std::string literalText(text.substr(start, pos - start));
    out.kind = Kind::Number;
    out.number = std::strtod(literalText.c_str(), nullptr);
    if (integral) {
      errno = 0;
      long long v = std::strtoll(literalText.c_str(), nullptr, 10);
      if (errno == 0) {
        out.isInteger = true;
        out.integer = v;
      }
    }
    return true;
  }
};

} // namespace

bool parse(std::string_view text, Value &out, std::string &error) {
  out = Value();
  return Parser(text, error).document(out);
}

} // namespace tileopt::json
