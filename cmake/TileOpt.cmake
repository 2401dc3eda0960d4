# tileopt_add_library(name sources... [DEPENDS targets...] [LINK_LIBS libs...])
#
# A static TileOpt library linked against the shared libMLIR/libLLVM. Static
# TileOpt libraries keep the tools self-contained; linking MLIR as one shared
# object keeps them small and lets the plugin share MLIR's global state with
# whichever tool loads it.
function(tileopt_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
endfunction()

# Copies the generated <doc name>.md of the current binary directory to
# docs/ir/ as part of the tileopt-doc target.
function(tileopt_publish_doc doc_name)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${doc_name}.md)
  add_custom_command(
    OUTPUT ${TILEOPT_DOCS_DIR}/${doc_name}.md
    COMMAND ${CMAKE_COMMAND} -E copy ${gen} ${TILEOPT_DOCS_DIR}/${doc_name}.md
    DEPENDS ${gen})
  add_custom_target(${doc_name}DocGen DEPENDS ${TILEOPT_DOCS_DIR}/${doc_name}.md)
  if(NOT TARGET tileopt-doc)
    add_custom_target(tileopt-doc)
  endif()
  add_dependencies(tileopt-doc ${doc_name}DocGen)
endfunction()

# tileopt_add_dialect_docs(<td file stem> <doc name> <dialect namespace>)
# Generates docs/ir/<doc name>.md from the dialect's ODS.
function(tileopt_add_dialect_docs td_stem doc_name dialect)
  set(LLVM_TARGET_DEFINITIONS ${td_stem}.td)
  mlir_tablegen(${doc_name}.md -gen-dialect-doc -dialect=${dialect})
  tileopt_publish_doc(${doc_name})
endfunction()

# tileopt_add_pass_docs(<doc name>)
# Generates docs/ir/<doc name>.md from the Passes.td of the current directory.
function(tileopt_add_pass_docs doc_name)
  set(LLVM_TARGET_DEFINITIONS Passes.td)
  mlir_tablegen(${doc_name}.md -gen-pass-doc)
  tileopt_publish_doc(${doc_name})
endfunction()
