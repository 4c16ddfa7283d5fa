#pragma once
// Paths of the copied inputs under tests/data (provenance in tests/data/PROVENANCE.md), for
// suites registered with tandem_add_test (which defines TANDEM_TEST_DATA).
#include <string>

namespace tandem::test {

/// tests/data/nccl/`name`: a copied nccl-tests log, e.g.
/// "H100-all_reduce-2x8-awsome-distributed-training.txt". Absolute path; the file is not opened.
inline std::string ncclTestsFile(const std::string& name) {
    return std::string(TANDEM_TEST_DATA) + "/nccl/" + name;
}

}  // namespace tandem::test
