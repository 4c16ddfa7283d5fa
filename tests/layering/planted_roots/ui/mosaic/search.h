#pragma once
// Planted: the same relative path as ../../core/mosaic/search.h (tst_layering_roots_planted).
