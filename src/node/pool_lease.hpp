// A communicator's leases from its node's pool: the bcast ring's cells and the alltoall staging
// areas, agreed by the node's ranks as lease_protocol.hpp describes. These adapt that protocol
// to a communicator's context and segment (its lease lines and acknowledgement lines).
#pragma once

#include <cstdint>

#include "node/lease_protocol.hpp"

namespace mcorecoll {

class CommContext;

// Every node rank asks in the same operation with the same wishes: makes sure the lease of
// `kind` holds at least `want0` x `want1` (ring: cells x cell bytes; staging: area bytes per
// rank, 0); its shape is then in ctx.channel.leases. Never waits: `pending` means ask again later.
LeaseAnswer try_lease(CommContext& ctx, LeaseKind kind, std::uint64_t want0, std::uint64_t want1);

// This rank lets go of every lease of the communicator (it is being freed).
void drop_leases(CommContext& ctx);

}  // namespace mcorecoll
