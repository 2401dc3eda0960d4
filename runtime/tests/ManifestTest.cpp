// The manifest reader: one good manifest, and one case per kind of mistake,
// each checked for the message that names it. No GPU needed.
#include "Manifest.h"
#include "Json.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tileopt;

namespace {

// The example of docs/artifact-format.md.
const char *kGood = R"({
  "format": "tileopt-artifact", "version": 1,
  "source_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  "target": {"arch": "sm_90a"},
  "buffers": [
    {"name": "x", "role": "input", "dtype": "bf16", "shape": [8192, 4096], "strides": [4096, 1]},
    {"name": "y", "role": "output", "dtype": "bf16", "shape": [8192, 4096], "strides": [4096, 1]},
    {"name": "tmp", "role": "scratch", "dtype": "f32", "shape": [8192], "strides": [1]}
  ],
  "kernels": [
    {"name": "softmax", "cubin": "kernels.cubin", "symbol": "softmax_kernel",
     "block": [128, 1, 1], "shared_memory": {"static": 4096, "dynamic": 65536},
     "params": ["ptr", "ptr", "i64", "i32", "f32"]}
  ],
  "launches": [
    {"kernel": 0, "grid": [8192, 1, 1],
     "args": [{"buffer": 0}, {"buffer": 1}, {"buffer": 0, "dim": 1},
              {"buffer": 0, "stride": 0}, {"f32": 0.125}]}
  ],
  "reference": "row_softmax", "reference_args": {"eps": 1e-6}
})";

// kGood with the first occurrence of `from` replaced by `to`.
std::string edit(const std::string &from, const std::string &to) {
  std::string text = kGood;
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos)
      << "the test's edit does not apply: " << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

std::string errorOf(const std::string &text) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(text, m, error)) << "accepted:\n" << text;
  return error;
}

template <typename T> T fromSlot(uint64_t slot) {
  T value;
  std::memcpy(&value, &slot, sizeof value);
  return value;
}

TEST(Manifest, ParsesTheDocumentedExample) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(kGood, m, error)) << error;
  EXPECT_EQ(m.arch, "sm_90a");
  EXPECT_EQ(m.archMajor, 9);
  EXPECT_EQ(m.archMinor, 0);
  EXPECT_TRUE(m.archSpecific);
  ASSERT_EQ(m.buffers.size(), 3u);
  EXPECT_EQ(m.buffers[1].role, TILEOPT_OUTPUT);
  EXPECT_EQ(m.buffers[1].dtype, TILEOPT_BF16);
  EXPECT_EQ(m.buffers[1].sizeBytes, 8192u * 4096u * 2u);
  EXPECT_EQ(m.buffers[2].sizeBytes, 8192u * 4u);
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_EQ(m.kernels[0].dynamicSharedBytes, 65536u);
  EXPECT_EQ(m.kernels[0].params.size(), 5u);
  ASSERT_EQ(m.launches.size(), 1u);
  const auto &args = m.launches[0].args;
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[0].kind, ArgDesc::Kind::BufferPointer);
  EXPECT_EQ(args[1].buffer, 1);
  EXPECT_EQ(args[2].kind, ArgDesc::Kind::Constant);
  EXPECT_EQ(fromSlot<int64_t>(args[2].constant), 4096);
  EXPECT_EQ(fromSlot<int32_t>(args[3].constant), 4096);
  EXPECT_EQ(fromSlot<float>(args[4].constant), 0.125f);
  EXPECT_EQ(m.reference, "row_softmax");
  EXPECT_EQ(m.referenceArgs.at("eps"), 1e-6);
}

TEST(Manifest, StridedBufferSpansToItsLastElement) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(edit(R"("shape": [8192], "strides": [1])",
                                 R"("shape": [4, 3], "strides": [10, 2])"),
                            m, error))
      << error;
  EXPECT_EQ(m.buffers[2].sizeBytes, (3u * 10u + 2u * 2u + 1u) * 4u);
}

TEST(Manifest, BadJsonSaysWhere) {
  EXPECT_EQ(
      errorOf("{\n  \"format\": \"tileopt-artifact\",\n  \"version\" 1\n}"),
      "invalid JSON: line 3, column 13: expected ':' after a key");
  EXPECT_EQ(errorOf(""), "invalid JSON: line 1, column 1: unexpected end of "
                         "input, expected a value");
  EXPECT_EQ(
      errorOf(std::string(kGood) + ","),
      "invalid JSON: line 21, column 2: unexpected text after the JSON value");
}

TEST(Manifest, RejectsAnotherFormatOrVersion) {
  EXPECT_EQ(errorOf(edit("\"tileopt-artifact\"", "\"other\"")),
            "format: expected \"tileopt-artifact\", got \"other\"");
  EXPECT_EQ(errorOf(edit("\"version\": 1", "\"version\": 2")),
            "version: unsupported version 2 (this runtime reads version 1)");
  EXPECT_EQ(errorOf("[]"),
            "expected a JSON object at the top level, got array");
}

TEST(Manifest, RejectsUnknownAndMissingKeys) {
  EXPECT_EQ(
      errorOf(edit("\"reference\":", "\"referenc\":")),
      "referenc: unknown key (expected one of format, version, source_hash, "
      "target, buffers, kernels, launches, reference, reference_args)");
  EXPECT_EQ(errorOf(edit("\"symbol\": \"softmax_kernel\",", "")),
            "kernels[0].symbol: missing");
  EXPECT_EQ(
      errorOf(edit("\"dynamic\": 65536", "\"dynamic\": 65536, \"extra\": 1")),
      "kernels[0].shared_memory: unknown key \"extra\" (expected one of "
      "static, dynamic)");
}

TEST(Manifest, RejectsUnknownDtypeRoleAndParamType) {
  EXPECT_EQ(
      errorOf(edit("\"bf16\"", "\"bf17\"")),
      "buffers[0].dtype: unknown dtype \"bf17\" (expected one of f16, bf16, "
      "f32, f64, i8, i32, i64)");
  EXPECT_EQ(errorOf(edit("\"scratch\"", "\"temp\"")),
            "buffers[2].role: unknown role \"temp\" (expected input, output, "
            "scratch or "
            "constant)");
  EXPECT_EQ(errorOf(edit("\"i32\", \"f32\"]", "\"u32\", \"f32\"]")),
            "kernels[0].params[3]: unknown param type \"u32\" (expected ptr, "
            "i32, i64 or f32)");
}

TEST(Manifest, RejectsBadBuffers) {
  EXPECT_EQ(errorOf(edit("\"strides\": [4096, 1]", "\"strides\": [1]")),
            "buffers[0].strides: has 1 entries but shape has 2");
  EXPECT_EQ(
      errorOf(edit("[8192, 4096]", "[8192, 0]")),
      "buffers[0].shape[1]: expected an integer in [1, 1099511627776], got 0");
  EXPECT_EQ(errorOf(edit("\"name\": \"tmp\"", "\"name\": \"x\"")),
            "buffers[2].name: duplicate buffer name \"x\"");
  EXPECT_EQ(errorOf(edit("\"role\": \"output\"", "\"role\": \"input\"")),
            "buffers: no buffer has role \"output\"");
}

TEST(Manifest, RejectsBadKernels) {
  EXPECT_EQ(errorOf(edit("[128, 1, 1]", "[1024, 2, 1]")),
            "kernels[0].block: more than 1024 threads per block");
  EXPECT_EQ(errorOf(edit("[128, 1, 1]", "[128, 1]")),
            "kernels[0].block: expected 3 integers [x, y, z], got 2");
  EXPECT_EQ(
      errorOf(edit("\"kernels.cubin\"", "\"../kernels.cubin\"")),
      "kernels[0].cubin: must be a path inside the artifact directory, got "
      "\"../kernels.cubin\"");
  EXPECT_EQ(
      errorOf(edit("\"sm_90a\"", "\"compute_90\"")),
      "target.arch: expected sm_<major><minor> with an optional a or f suffix "
      "(e.g. sm_90, sm_90a), got \"compute_90\"");
  // Shorter than "sm_": the parser threw std::out_of_range (found by
  // runtime/tests/fuzz/ManifestFuzzer.cpp), which aborts the program that
  // loads the artifact.
  for (const char *arch : {"s", "sm", "sm_"})
    EXPECT_EQ(errorOf(edit("\"sm_90a\"", std::string("\"") + arch + "\"")),
              std::string("target.arch: expected sm_<major><minor> with an "
                          "optional a or f suffix (e.g. sm_90, sm_90a), got "
                          "\"") +
                  arch + "\"");
}

TEST(Manifest, RejectsArgsThatDoNotMatchParams) {
  EXPECT_EQ(errorOf(edit(", {\"f32\": 0.125}", "")),
            "launches[0].args: kernel \"softmax\" takes 5 params but the "
            "launch gives 4 args");
  EXPECT_EQ(errorOf(edit("{\"f32\": 0.125}", "{\"i64\": 3}")),
            "launches[0].args[4]: kernel \"softmax\" param 4 is f32, but the "
            "argument is an i64 literal");
  EXPECT_EQ(errorOf(edit("{\"buffer\": 1}", "{\"buffer\": 1, \"dim\": 0}")),
            "launches[0].args[1]: kernel \"softmax\" param 1 is ptr, but the "
            "argument "
            "is buffer \"y\" dim 0 = 8192 (an integer)");
  EXPECT_EQ(errorOf(edit("{\"buffer\": 0}", "{\"f32\": 1.0}")),
            "launches[0].args[0]: kernel \"softmax\" param 0 is ptr, but the "
            "argument is an f32 literal");
  EXPECT_EQ(errorOf(edit("{\"buffer\": 1}", "{\"buffer\": 3}")),
            "launches[0].args[1].buffer: expected an integer in [0, 2], got 3");
  EXPECT_EQ(errorOf(edit("\"dim\": 1", "\"dim\": 2")),
            "launches[0].args[2].dim: expected an integer in [0, 1], got 2");
  EXPECT_EQ(errorOf(edit("\"kernel\": 0", "\"kernel\": 1")),
            "launches[0].kernel: expected an integer in [0, 0], got 1");
  EXPECT_EQ(
      errorOf(edit("[8192, 1, 1]", "[8192, 70000, 1]")),
      "launches[0].grid[1]: expected an integer in [1, 65535], got 70000");
}

// kGood's first param bound to a tensor map of buffer x instead.
std::string withTensorMap(const std::string &map) {
  return edit("\"args\": [{\"buffer\": 0}",
              "\"args\": [{\"tensor_map\": " + map + "}");
}

TEST(Manifest, ParsesTensorMapArgs) {
  Manifest m;
  std::string error;
  std::string text =
      withTensorMap(R"({"buffer": 0, "box": [128, 64], "swizzle": 128})");
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  ASSERT_EQ(m.tensorMaps.size(), 1u);
  EXPECT_EQ(m.tensorMaps[0].buffer, 0);
  EXPECT_EQ(m.tensorMaps[0].box, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(m.tensorMaps[0].swizzle, 128);
  EXPECT_EQ(m.launches[0].args[0].kind, ArgDesc::Kind::TensorMap);
  EXPECT_EQ(m.launches[0].args[0].tensorMap, 0);
}

TEST(Manifest, SharesEqualTensorMaps) {
  Manifest m;
  std::string error;
  std::string map =
      R"({"tensor_map": {"buffer": 1, "box": [64, 64], "swizzle": 128}})";
  std::string text = edit(R"("args": [{"buffer": 0}, {"buffer": 1})",
                          R"("args": [)" + map + ", " + map);
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  ASSERT_EQ(m.tensorMaps.size(), 1u);
  EXPECT_EQ(m.launches[0].args[0].tensorMap, 0);
  EXPECT_EQ(m.launches[0].args[1].tensorMap, 0);
}

TEST(Manifest, RejectsTensorMapsTmaCannotTake) {
  EXPECT_EQ(
      errorOf(edit(
          "{\"buffer\": 0, \"dim\": 1}",
          R"({"tensor_map": {"buffer": 0, "box": [8, 8], "swizzle": 0}})")),
      "launches[0].args[2]: kernel \"softmax\" param 2 is i64, but the "
      "argument is a tensor map");
  EXPECT_EQ(
      errorOf(withTensorMap(R"({"buffer": 0, "box": [64], "swizzle": 128})")),
      "launches[0].args[0].tensor_map.box: has 1 dims, buffer \"x\" 2");
  EXPECT_EQ(errorOf(withTensorMap(
                R"({"buffer": 0, "box": [512, 64], "swizzle": 128})")),
            "launches[0].args[0].tensor_map.box[0]: expected an integer in [1, "
            "256], got 512");
  EXPECT_EQ(errorOf(withTensorMap(
                R"({"buffer": 0, "box": [128, 128], "swizzle": 128})")),
            "launches[0].args[0].tensor_map.box: its inner dim is 256 bytes; a "
            "tensor map "
            "needs a multiple of 16, at most the swizzle's 128");
  EXPECT_EQ(
      errorOf(withTensorMap(R"({"buffer": 0, "box": [128, 4], "swizzle": 0})")),
      "launches[0].args[0].tensor_map.box: its inner dim is 8 bytes; a tensor "
      "map "
      "needs a multiple of 16");
  EXPECT_EQ(errorOf(withTensorMap(
                R"({"buffer": 0, "box": [128, 64], "swizzle": 16})")),
            "launches[0].args[0].tensor_map.swizzle: expected 0, 32, 64 or 128 "
            "bytes, got 16");
  EXPECT_EQ(errorOf(withTensorMap(
                R"({"buffer": 0, "box": [128, 64], "swizzle": 128, "l2": 1})")),
            "launches[0].args[0].tensor_map: unknown key \"l2\" (expected one "
            "of buffer, box, swizzle)");
  // x's rows 4099 bf16 apart.
  std::string strided =
      withTensorMap(R"({"buffer": 0, "box": [128, 64], "swizzle": 128})");
  strided.replace(strided.find("[4096, 1]"), 9, "[4099, 1]");
  EXPECT_EQ(errorOf(strided), "launches[0].args[0].tensor_map: buffer \"x\" "
                              "stride 0 is 8198 bytes; a tensor "
                              "map needs multiples of 16");
}

// kGood with buffer tmp a constant: 8192 f32 at byte 64 of constants.bin.
const std::string kTmp =
    R"("name": "tmp", "role": "scratch", "dtype": "f32", "shape": [8192], "strides": [1]})";
std::string
withConstant(const std::string &data =
                 R"({"file": "constants.bin", "offset": 64, "bytes": 32768})") {
  return edit(
      kTmp,
      R"("name": "tmp", "role": "constant", "dtype": "f32", "shape": [8192], )"
      R"("strides": [1], "data": )" +
          data + "}");
}

TEST(Manifest, ParsesConstantBuffers) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(withConstant(), m, error)) << error;
  ASSERT_EQ(m.buffers.size(), 3u);
  EXPECT_EQ(m.buffers[2].role, TILEOPT_CONSTANT);
  EXPECT_EQ(m.buffers[2].data.file, "constants.bin");
  EXPECT_EQ(m.buffers[2].data.offset, 64u);
  EXPECT_EQ(m.buffers[2].sizeBytes, 32768u);
  EXPECT_EQ(m.buffers[0].data.file, "") << "only constants have data";
  // In a subdirectory; of rank 0 (one element); 2-D row-major.
  ASSERT_TRUE(parseManifest(
      withConstant(R"({"file": "w/c.bin", "offset": 0, "bytes": 32768})"), m,
      error))
      << error;
  EXPECT_EQ(m.buffers[2].data.file, "w/c.bin");
  std::string scalar =
      edit(kTmp, R"("name": "tmp", "role": "constant", "dtype": "bf16", )"
                 R"("shape": [], "strides": [], )"
                 R"("data": {"file": "c", "offset": 16, "bytes": 2}})");
  ASSERT_TRUE(parseManifest(scalar, m, error)) << error;
  EXPECT_EQ(m.buffers[2].sizeBytes, 2u);
  std::string matrix =
      edit(kTmp, R"("name": "tmp", "role": "constant", "dtype": "i8", )"
                 R"("shape": [3, 5, 7], "strides": [35, 7, 1], )"
                 R"("data": {"file": "c", "offset": 32, "bytes": 105}})");
  ASSERT_TRUE(parseManifest(matrix, m, error)) << error;
  EXPECT_EQ(m.buffers[2].sizeBytes, 105u);
}

TEST(Manifest, RejectsConstantsWithoutData) {
  EXPECT_EQ(errorOf(edit("\"role\": \"scratch\"", "\"role\": \"constant\"")),
            "buffers[2].data: missing: a buffer of role \"constant\" needs "
            "{\"file\", \"offset\", \"bytes\"}");
  EXPECT_EQ(errorOf(withConstant("[]")),
            "buffers[2].data: expected object, got array");
  EXPECT_EQ(errorOf(withConstant(R"({"offset": 0, "bytes": 32768})")),
            "buffers[2].data.file: missing");
  EXPECT_EQ(errorOf(withConstant(R"({"file": "c", "bytes": 32768})")),
            "buffers[2].data.offset: missing");
  EXPECT_EQ(errorOf(withConstant(R"({"file": "c", "offset": 0})")),
            "buffers[2].data.bytes: missing");
  EXPECT_EQ(errorOf(withConstant(
                R"({"file": "c", "offset": 0, "bytes": 32768, "crc": 1})")),
            "buffers[2].data: unknown key \"crc\" (expected one of file, "
            "offset, bytes)");
}

TEST(Manifest, RejectsDataOnOtherRoles) {
  std::string data = R"(, "data": {"file": "c", "offset": 0, "bytes": 32768}})";
  EXPECT_EQ(errorOf(edit("\"strides\": [1]}", "\"strides\": [1]" + data)),
            "buffers[2].data: only a buffer of role \"constant\" has data, "
            "this one is "
            "\"scratch\"");
  EXPECT_EQ(
      errorOf(edit("\"strides\": [4096, 1]}", "\"strides\": [4096, 1]" + data)),
      "buffers[0].data: only a buffer of role \"constant\" has data, this one "
      "is "
      "\"input\"");
}

TEST(Manifest, RejectsConstantOffsetsOffSixteenBytes) {
  EXPECT_EQ(
      errorOf(withConstant(R"({"file": "c", "offset": 8, "bytes": 32768})")),
      "buffers[2].data.offset: 8 is not a multiple of 16");
  EXPECT_EQ(
      errorOf(withConstant(R"({"file": "c", "offset": -16, "bytes": 32768})")),
      "buffers[2].data.offset: expected an integer in [0, "
      "9223372036854775807], got -16");
  EXPECT_EQ(
      errorOf(withConstant(R"({"file": "c", "offset": 1.5, "bytes": 32768})")),
      "buffers[2].data.offset: expected an integer in [0, "
      "9223372036854775807], got 1.5");
}

TEST(Manifest, RejectsConstantBytesOtherThanTheBufferSize) {
  EXPECT_EQ(
      errorOf(withConstant(R"({"file": "c", "offset": 0, "bytes": 16384})")),
      "buffers[2].data.bytes: expected the buffer's size, 32768 bytes (8192 "
      "f32), "
      "got 16384");
  EXPECT_EQ(
      errorOf(withConstant(R"({"file": "c", "offset": 0, "bytes": "32768"})")),
      "buffers[2].data.bytes: expected number, got \"32768\"");
}

TEST(Manifest, RejectsConstantFilesOutsideTheArtifact) {
  EXPECT_EQ(
      errorOf(
          withConstant(R"({"file": "../c.bin", "offset": 0, "bytes": 32768})")),
      "buffers[2].data.file: must be a path inside the artifact directory, got "
      "\"../c.bin\"");
  EXPECT_EQ(
      errorOf(withConstant(
          R"({"file": "w/../../c.bin", "offset": 0, "bytes": 32768})")),
      "buffers[2].data.file: must be a path inside the artifact directory, got "
      "\"w/../../c.bin\"");
  EXPECT_EQ(
      errorOf(withConstant(
          R"({"file": "/tmp/c.bin", "offset": 0, "bytes": 32768})")),
      "buffers[2].data.file: must be a path inside the artifact directory, got "
      "\"/tmp/c.bin\"");
  EXPECT_EQ(
      errorOf(withConstant(R"({"file": "", "offset": 0, "bytes": 32768})")),
      "buffers[2].data.file: must not be empty");
  EXPECT_EQ(
      errorOf(withConstant(R"({"file": 3, "offset": 0, "bytes": 32768})")),
      "buffers[2].data.file: expected string, got 3");
}

TEST(Manifest, RejectsConstantsThatAreNotRowMajor) {
  std::string strided =
      edit(kTmp, R"("name": "tmp", "role": "constant", "dtype": "f32", )"
                 R"("shape": [4, 3], "strides": [10, 2], )"
                 R"("data": {"file": "c", "offset": 0, "bytes": 140}})");
  EXPECT_EQ(
      errorOf(strided),
      "buffers[2].strides: a constant buffer is row-major contiguous: expected "
      "[3, 1], got [10, 2]");
  std::string columnMajor =
      edit(kTmp, R"("name": "tmp", "role": "constant", "dtype": "f32", )"
                 R"("shape": [4, 3], "strides": [1, 4], )"
                 R"("data": {"file": "c", "offset": 0, "bytes": 48}})");
  EXPECT_EQ(
      errorOf(columnMajor),
      "buffers[2].strides: a constant buffer is row-major contiguous: expected "
      "[3, 1], got [1, 4]");
}

TEST(Manifest, RejectsABadHash) {
  EXPECT_EQ(
      errorOf(edit("\"0123456789abcdef0", "\"0123456789ABCDEF0")),
      "source_hash: expected 64 lowercase hex digits (a sha256), got "
      "\"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\"");
}

TEST(Json, ReadsStringsAndNumbersExactly) {
  json::Value v;
  std::string error;
  ASSERT_TRUE(json::parse(
      R"({"s": "a\"\\\/\n\u00e9\ud83d\ude00", "big": 9007199254740993,
                              "f": -1.5e3, "t": true, "n": null, "a": [1, [2]]})",
      v, error))
      << error;
  EXPECT_EQ(v.find("s")->string, "a\"\\/\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(v.find("big")->isInteger);
  EXPECT_EQ(v.find("big")->integer, 9007199254740993LL);
  EXPECT_FALSE(v.find("f")->isInteger);
  EXPECT_EQ(v.find("f")->number, -1500.0);
  EXPECT_TRUE(v.find("t")->boolean);
  EXPECT_EQ(v.find("n")->kind, json::Kind::Null);
  EXPECT_EQ(v.find("a")->array[1].array[0].integer, 2);
}

TEST(Json, RejectsMalformedInput) {
  json::Value v;
  std::string error;
  EXPECT_FALSE(json::parse(R"({"a": 1, "a": 2})", v, error));
  EXPECT_EQ(error, "line 1, column 10: duplicate key \"a\"");
  EXPECT_FALSE(json::parse("[01]", v, error));
  EXPECT_EQ(error, "line 1, column 3: expected ',' or ']' in an array");
  EXPECT_FALSE(json::parse("\"\\ud800\"", v, error));
  EXPECT_EQ(error, "line 1, column 8: unpaired surrogate in a \\u escape");
  EXPECT_FALSE(json::parse(std::string(100, '['), v, error));
  EXPECT_EQ(error, "line 1, column 65: nesting deeper than 64");
  EXPECT_FALSE(json::parse("[1,]", v, error));
  EXPECT_EQ(error, "line 1, column 4: unexpected character ']'");
}

} // namespace
