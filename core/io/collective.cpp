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

}  // namespace tandem::io
