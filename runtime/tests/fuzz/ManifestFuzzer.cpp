// A libFuzzer target of the runtime's manifest reader (issue 28, item 2):
// src/Json.cpp and src/Manifest.cpp, the code that reads manifest.json
// before any CUDA call, on any bytes. A bad manifest must be an error
// message; a crash, a sanitizer report or a hang is a bug. Built with
// clang's -fsanitize=fuzzer,address,undefined by scripts/fuzz.sh, seeded
// with the manifests of runtime/tests/fuzz/corpus.
#include "Manifest.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tileopt::Manifest manifest;
  std::string error;
  std::string_view text(reinterpret_cast<const char *>(data), size);
  if (!tileopt::parseManifest(text, manifest, error) && error.empty())
    __builtin_trap(); // a refusal must say why
  return 0;
}
