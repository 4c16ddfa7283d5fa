#pragma once
// What the launch-file suites share (tst_mosaic_launch_file: reading launch files;
// tst_mosaic_launch_line: the launch line megatronArguments writes and its read-back): a model
// config's geometry, a p6-b200 cluster, and a script read into a plan. For suites registered
// with tandem_add_test (which defines TANDEM_TEST_DATA).
#include <QtGlobal>
#include <string>
#include <vector>

#include "io/hf_config.h"
#include "mosaic/imported_geometry.h"
#include "mosaic/megatron_args.h"
#include "mosaic/plan.h"
#include "mosaic/report.h"

namespace launch_fixtures {

using namespace tandem::mosaic;

using C = Checkpointing;

/// Every member of the plan, compared through its JSON form (report.h writes every member).
inline bool samePlan(const Plan& a, const Plan& b) {
    return planToJsonObject(a) == planToJsonObject(b);
}

/// The geometry `tandem-cli plan` costs for a Hugging Face config of tests/data/models.
inline Geometry modelGeometry(const char* file) {
    tandem::Diagnostics d;
    const auto m =
        tandem::io::loadModelConfigFile(std::string(TANDEM_TEST_DATA) + "/models/" + file, d);
    if (!m) qFatal("%s", d.str().c_str());
    return importedGeometry(*m).geometry;
}

/// A cluster of `devices` p6-b200 GPUs under the megatron-core stack (VP, ETP and FSDP costed).
inline Cluster launchCluster(int devices, int globalBatch = 1024, int seqLen = 4096,
                             const char* stack = "megatron-core") {
    Cluster c;
    c.hardware = builtinHardware("p6-b200");
    c.stack = builtinStack(stack);
    c.devices = devices;
    c.globalBatch = globalBatch;
    c.seqLen = seqLen;
    return c;
}

/// `script` read for `g` on `c`; the plan, or a failed QVERIFY.
struct ReadBack {
    bool ok = false;
    Plan plan;
    Cluster cluster;
    std::string error;
    std::vector<std::string> notes;
};
inline ReadBack readLaunch(const std::string& script, const Geometry& g, const Cluster& c) {
    ReadBack r;
    r.cluster = c;
    r.ok = parseMegatronArguments(script, g, r.cluster, r.plan, r.error, &r.notes);
    return r;
}

}  // namespace launch_fixtures
