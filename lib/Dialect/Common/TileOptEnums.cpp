//===- TileOptEnums.cpp - Op kinds shared by tk and tb --------------------===//
#include "TileOpt/Dialect/Common/TileOptEnums.h"

#include "TileOpt/Dialect/Common/TileOptEnums.cpp.inc"
