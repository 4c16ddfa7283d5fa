#include "io/collective.h"

namespace tandem::io {

const EnumTable<Collective>& collectiveNames() {
    static const EnumTable<Collective> t = {{Collective::ReduceScatter, "reduce_scatter"},
                                            {Collective::AllReduce, "all_reduce"},
                                            {Collective::AllGather, "all_gather"},
                                            {Collective::AllToAll, "alltoall"},
                                            {Collective::Broadcast, "broadcast"},
                                            {Collective::SendRecv, "sendrecv"},
                                            {Collective::Hypercube, "hypercube"},
                                            {Collective::Gather, "gather"},
                                            {Collective::Scatter, "scatter"},
                                            {Collective::Reduce, "reduce"}};
    return t;
}
const char* name(Collective c) { return enumName(collectiveNames(), c); }

double busFactorLimit(Collective c) {
    switch (c) {
        case Collective::AllReduce:
            return 2.0;
        case Collective::AllGather:
        case Collective::ReduceScatter:
        case Collective::AllToAll:
            return 1.0;
        default:
            return 0.0;
    }
}

double busBandwidthFactor(Collective c, int ranks) {
    if (ranks <= 0) return 0;
    if (const double f = busFactorLimit(c); f > 0) return f * (ranks - 1) / ranks;
    switch (c) {
        case Collective::Broadcast:
        case Collective::Reduce:
        case Collective::SendRecv:
            return 1.0;
        default:
            return 0.0;
    }
}

}  // namespace tandem::io
