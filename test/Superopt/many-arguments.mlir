// A kernel may read every argument of the program, however many. Choosing
// those inputs must not walk every smaller subset of them first (2^69
// here); the search ends on its small graph budget, and the program keeps
// its form.
// RUN: tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=900 graph-budget=20000}))' \
// RUN:   2>&1 | FileCheck %s
// CHECK: remark: no cheaper equivalent µGraph found; kept as it is
// CHECK-LABEL: func.func @sum_of_70
// CHECK-COUNT-69: tk.binary add
func.func @sum_of_70(%a0: tensor<4x8xf16>, %a1: tensor<4x8xf16>, %a2: tensor<4x8xf16>, %a3: tensor<4x8xf16>, %a4: tensor<4x8xf16>, %a5: tensor<4x8xf16>, %a6: tensor<4x8xf16>, %a7: tensor<4x8xf16>, %a8: tensor<4x8xf16>, %a9: tensor<4x8xf16>, %a10: tensor<4x8xf16>, %a11: tensor<4x8xf16>, %a12: tensor<4x8xf16>, %a13: tensor<4x8xf16>, %a14: tensor<4x8xf16>, %a15: tensor<4x8xf16>, %a16: tensor<4x8xf16>, %a17: tensor<4x8xf16>, %a18: tensor<4x8xf16>, %a19: tensor<4x8xf16>, %a20: tensor<4x8xf16>, %a21: tensor<4x8xf16>, %a22: tensor<4x8xf16>, %a23: tensor<4x8xf16>, %a24: tensor<4x8xf16>, %a25: tensor<4x8xf16>, %a26: tensor<4x8xf16>, %a27: tensor<4x8xf16>, %a28: tensor<4x8xf16>, %a29: tensor<4x8xf16>, %a30: tensor<4x8xf16>, %a31: tensor<4x8xf16>, %a32: tensor<4x8xf16>, %a33: tensor<4x8xf16>, %a34: tensor<4x8xf16>, %a35: tensor<4x8xf16>, %a36: tensor<4x8xf16>, %a37: tensor<4x8xf16>, %a38: tensor<4x8xf16>, %a39: tensor<4x8xf16>, %a40: tensor<4x8xf16>, %a41: tensor<4x8xf16>, %a42: tensor<4x8xf16>, %a43: tensor<4x8xf16>, %a44: tensor<4x8xf16>, %a45: tensor<4x8xf16>, %a46: tensor<4x8xf16>, %a47: tensor<4x8xf16>, %a48: tensor<4x8xf16>, %a49: tensor<4x8xf16>, %a50: tensor<4x8xf16>, %a51: tensor<4x8xf16>, %a52: tensor<4x8xf16>, %a53: tensor<4x8xf16>, %a54: tensor<4x8xf16>, %a55: tensor<4x8xf16>, %a56: tensor<4x8xf16>, %a57: tensor<4x8xf16>, %a58: tensor<4x8xf16>, %a59: tensor<4x8xf16>, %a60: tensor<4x8xf16>, %a61: tensor<4x8xf16>, %a62: tensor<4x8xf16>, %a63: tensor<4x8xf16>, %a64: tensor<4x8xf16>, %a65: tensor<4x8xf16>, %a66: tensor<4x8xf16>, %a67: tensor<4x8xf16>, %a68: tensor<4x8xf16>, %a69: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %s1 = tk.binary add %a0, %a1 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s2 = tk.binary add %s1, %a2 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s3 = tk.binary add %s2, %a3 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s4 = tk.binary add %s3, %a4 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s5 = tk.binary add %s4, %a5 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s6 = tk.binary add %s5, %a6 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s7 = tk.binary add %s6, %a7 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s8 = tk.binary add %s7, %a8 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s9 = tk.binary add %s8, %a9 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s10 = tk.binary add %s9, %a10 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s11 = tk.binary add %s10, %a11 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s12 = tk.binary add %s11, %a12 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s13 = tk.binary add %s12, %a13 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s14 = tk.binary add %s13, %a14 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s15 = tk.binary add %s14, %a15 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s16 = tk.binary add %s15, %a16 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s17 = tk.binary add %s16, %a17 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s18 = tk.binary add %s17, %a18 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s19 = tk.binary add %s18, %a19 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s20 = tk.binary add %s19, %a20 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s21 = tk.binary add %s20, %a21 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s22 = tk.binary add %s21, %a22 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s23 = tk.binary add %s22, %a23 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s24 = tk.binary add %s23, %a24 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s25 = tk.binary add %s24, %a25 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s26 = tk.binary add %s25, %a26 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s27 = tk.binary add %s26, %a27 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s28 = tk.binary add %s27, %a28 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s29 = tk.binary add %s28, %a29 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s30 = tk.binary add %s29, %a30 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s31 = tk.binary add %s30, %a31 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s32 = tk.binary add %s31, %a32 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s33 = tk.binary add %s32, %a33 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s34 = tk.binary add %s33, %a34 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s35 = tk.binary add %s34, %a35 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s36 = tk.binary add %s35, %a36 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s37 = tk.binary add %s36, %a37 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s38 = tk.binary add %s37, %a38 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s39 = tk.binary add %s38, %a39 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s40 = tk.binary add %s39, %a40 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s41 = tk.binary add %s40, %a41 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s42 = tk.binary add %s41, %a42 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s43 = tk.binary add %s42, %a43 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s44 = tk.binary add %s43, %a44 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s45 = tk.binary add %s44, %a45 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s46 = tk.binary add %s45, %a46 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s47 = tk.binary add %s46, %a47 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s48 = tk.binary add %s47, %a48 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s49 = tk.binary add %s48, %a49 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s50 = tk.binary add %s49, %a50 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s51 = tk.binary add %s50, %a51 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s52 = tk.binary add %s51, %a52 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s53 = tk.binary add %s52, %a53 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s54 = tk.binary add %s53, %a54 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s55 = tk.binary add %s54, %a55 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s56 = tk.binary add %s55, %a56 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s57 = tk.binary add %s56, %a57 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s58 = tk.binary add %s57, %a58 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s59 = tk.binary add %s58, %a59 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s60 = tk.binary add %s59, %a60 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s61 = tk.binary add %s60, %a61 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s62 = tk.binary add %s61, %a62 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s63 = tk.binary add %s62, %a63 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s64 = tk.binary add %s63, %a64 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s65 = tk.binary add %s64, %a65 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s66 = tk.binary add %s65, %a66 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s67 = tk.binary add %s66, %a67 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s68 = tk.binary add %s67, %a68 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s69 = tk.binary add %s68, %a69 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %s69 : tensor<4x8xf16>
}
