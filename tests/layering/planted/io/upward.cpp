// A planted violation for the layering test: io may not use mosaic.
#include "common/diagnostics.h"
#include "mosaic/geometry.h"
