# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TILEOPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tileopt_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(
    ("%tileopt_plugin", os.path.join(config.tileopt_lib_dir, "TileOptPlugin.so"))
)
# tileopt-compile by absolute path, for RUN lines that change PATH.
config.substitutions.append(
    ("%tileopt_compile", os.path.join(config.tileopt_tools_dir, "tileopt-compile"))
)
# The stock tool from the LLVM installation TileOpt was built against.
config.substitutions.append(
    ("%stock_mlir_opt", os.path.join(config.mlir_tools_dir, "mlir-opt"))
)

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# GPU code generation tests need ptxas (from the CUDA toolkit); they do not
# need a GPU.
cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
if os.access(os.path.join(cuda_home, "bin", "ptxas"), os.X_OK) or shutil.which("ptxas"):
    config.available_features.add("ptxas")
    config.environment["CUDA_HOME"] = cuda_home

tool_dirs = [config.tileopt_tools_dir, config.llvm_tools_dir]
tools = ["tileopt-compile", "tileopt-interp", "tileopt-opt"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
