#pragma once
// Planted: the same relative path as ../../ui/mosaic/search.h (tst_layering_roots_planted).
