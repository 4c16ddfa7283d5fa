#pragma once
// Planted: a header only the ui root has (not a clash).
