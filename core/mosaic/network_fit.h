#pragma once
// The collective model's network constants against nccl-tests logs [docs/MODEL-NETWORK.md
// section 4]: the rows of a log the check uses, the model's bus bandwidth for a row, and the fit
// of a node's two free network constants (Hardware::interLatency_s, interBusEfficiency) to the
// rows of its logs. Everything else in the model is a vendor rate or NCCL's own step latency.
#include <string>
#include <vector>

#include "io/nccl_tests.h"
#include "mosaic/collectives.h"
#include "mosaic/hardware.h"

namespace tandem::mosaic {

/// One measured row of an nccl-tests log.
struct NetworkRow {
    Collective collective = Collective::AllReduce;
    int ranks = 0;         ///< GPUs in the run
    double bytes = 0;      ///< per rank (the nccl-tests size column), bytes
    double busbw_Bps = 0;  ///< measured bus bandwidth (best of out-of-place and in-place), B/s
    std::string log;       ///< the log's name, for tables and leave-one-out
    /// The run's fabric reduced in the network (InfiniBand SHARP): modelBusBandwidth costs the
    /// row with Hardware::sharp on whatever the hardware says.
    bool sharp = false;
};

/// Rows of `curve` at sizes >= `minBytes` (64 MiB by default: below it the size ramp and
/// start-up dominate and the check is of bandwidth) for the collectives the model costs; empty
/// for another collective (broadcast, sendrecv).
std::vector<NetworkRow> networkRows(const io::NcclCurve& curve, const std::string& log,
                                    double minBytes = 64.0 * 1024 * 1024);

/// The model's bus bandwidth for a row on `hw` (all ranks packed on nodes of hw.gpusPerNode,
/// analyticalCollectiveTime; SHARP on for a row marked `sharp`), B/s.
double modelBusBandwidth(const Hardware& hw, const NetworkRow& row);

/// model / measured - 1 of a row's bus bandwidth.
double busBandwidthError(const Hardware& hw, const NetworkRow& row);

/// The fitted network constants and the largest |error| over the rows.
struct NetworkFit {
    double interLatency_s = 0;
    double interBusEfficiency = 1;
    double maxAbsError = 0;
};

/// Fits hw.interLatency_s (0 to 5 ms) and hw.interBusEfficiency (0.05 to 1) to `rows`,
/// minimising the largest |busBandwidthError|: for a fixed latency the worst error is unimodal
/// in the efficiency (golden section); the latency is searched on a 10 us grid and refined.
/// Rows inside one node do not depend on either constant and are ignored; no row across nodes
/// throws std::invalid_argument.
NetworkFit fitNetworkConstants(const Hardware& hw, const std::vector<NetworkRow>& rows);

}  // namespace tandem::mosaic
