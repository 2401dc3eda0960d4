//===- TileOptDialect.td - The artifact and launch ABI -----*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TILEOPT_TILEOPTDIALECT_TD
#define TILEOPT_DIALECT_TILEOPT_TILEOPTDIALECT_TD

include "mlir/IR/OpBase.td"

def TileOpt_Dialect : Dialect {
  let name = "tileopt";
  let cppNamespace = "::mlir::tileopt";
  let summary = "The attributes of TileOpt's artifacts and kernel launches";
  let description = [{
    A dialect without ops, as upstream's `dlti`: it owns and verifies the
    discardable attributes that carry what `tileopt-compile` writes into an
    artifact's manifest (docs/artifact-format.md) and what the runtime
    needs to launch its kernels. Their names begin with `tileopt.` because
    the IR users write spells them so, and MLIR asks the dialect whose
    namespace prefixes an attribute to verify it; so they belong to a
    dialect of that name, not to `tile`, whose host programs carry them.
    The `tile` dialect depends on this one, so it is loaded wherever tile
    programs are.

    On the arguments of a host function (the memref buffers its
    `tile.launch` ops bind):

    * `tileopt.name` (string): the buffer's name in the manifest, unique
      within the function; also on the tensor arguments of a program not
      lowered yet (tileopt-compile names them after the source's SSA
      names), which become such buffers;
    * `tileopt.output` (unit): the program writes the buffer as a result;
    * `tileopt.scratch` (unit): the program keeps an intermediate tensor in
      the buffer, which is neither given nor a result (manifest role
      `scratch`: the runtime allocates it when the caller does not);
    * the others are inputs.
    * `tileopt.constant` (dense elements of the argument's shape and
      element type): the buffer's contents are fixed by the program (a
      weight or mask the front end wrote as a constant, such as TOSA's
      `tosa.const`), so the caller never passes it: the artifact holds the
      values (manifest role `constant`) and the runtime uploads them. Also
      on the tensor arguments of a program not lowered yet: the importer
      turns a non-splat constant the kernel graph reads into such an
      argument, since tk ops take tensors, not constants. The search and
      the verifier treat it as any input, which is sound: a µGraph equal to
      the program for every input is equal for these values too.

    On the host function:

    * `tileopt.reference` (string): the CPU reference of the runtime that
      `tileopt-run` checks the outputs against;
    * `tileopt.reference_args` (dictionary of floats): that reference's
      arguments; only with `tileopt.reference`.

    On a kernel (`gpu.func`) that `tileopt-lower-tile` produces:

    * `tileopt.dynamic_shared_memory` (i64): the bytes of dynamic shared
      memory a launch passes, where the kernel needs any;
    * `tileopt.tensor_maps` (array of dictionaries): the TMA tensor maps
      the kernel takes after its other parameters, one dictionary each:
      `view` (i64), the tile.kernel argument whose buffer the map
      describes, and `box` (i64 array, outer dim first), the elements one
      copy moves; the maps swizzle 128 bytes and fill what is outside the
      buffer with zeros;
    * `tileopt.grid_sync` (unit): the kernel's blocks wait for each other,
      so they must all be resident at once; the manifest marks it.

    The code generator also marks tile ops and types with `tileopt.`
    names while it runs (lib/Conversion/TileToGPU/Utility.h); they never
    leave the pass, and the verifier rejects them as any other name it
    does not know.
  }];
  let discardableAttrs = (ins
    "::mlir::StringAttr":$name,
    "::mlir::UnitAttr":$output,
    "::mlir::UnitAttr":$scratch,
    "::mlir::DenseElementsAttr":$constant,
    "::mlir::StringAttr":$reference,
    "::mlir::DictionaryAttr":$reference_args,
    "::mlir::IntegerAttr":$dynamic_shared_memory,
    "::mlir::ArrayAttr":$tensor_maps,
    "::mlir::UnitAttr":$grid_sync
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
}

#endif // TILEOPT_DIALECT_TILEOPT_TILEOPTDIALECT_TD
