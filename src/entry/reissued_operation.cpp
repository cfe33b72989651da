#include "entry/reissued_operation.hpp"

#include "common/message_bytes.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "decisions/config.hpp"
#include "progress/timed_operation.hpp"

namespace mcorecoll {

int ReissuedOperation::prepare() {
  const auto count = [](const StartCount& s) {
    if (s.on) count_call(s.collective, s.path, s.bytes, CallKind::persistent);
  };
  if (context_released(ctx_)) {
    active_ = bound_.get();
    count(counted_);
    return MPI_SUCCESS;
  }
  if (settled_) {
    active_ = settled_;
    count(settled_count_);
    return MPI_SUCCESS;
  }
  made_.reset();
  active_ = nullptr;
  IssuedStart issued;
  MPI_Request library = MPI_REQUEST_NULL;
  if (const int rc = issue_start(issue_, &issued, &library); rc != MPI_SUCCESS) return rc;
  const bool captured = issued.op != nullptr;
  if (captured) made_ = std::move(issued.op);
  else if (library != MPI_REQUEST_NULL) made_ = std::make_unique<LibraryOperation>(ctx_, library);
  active_ = made_.get();
  const Decision& d = issued.decision;
  if (d.settled) {
    // From the next start on: the initialization's own operation where it is the learned path,
    // else this start's, begun again (not the MPI library's non-blocking request: it is gone).
    settled_count_ = {counted_.collective, d.path, d.bytes, d.count};
    if (d.path == counted_.path) settled_ = bound_.get();
    else if (captured) settled_ = made_.get();
  }
  return MPI_SUCCESS;
}

void ReissuedOperation::begin() {
  rc = MPI_SUCCESS;
  if (active_) active_->begin();
}

bool ReissuedOperation::step(bool may_call_mpi) {
  return !active_ || step_inner(*active_, may_call_mpi);
}

void ReissuedOperation::finish() {
  if (!active_) return;
  active_->finish();
  rc = active_->rc;
}

int make_reissued(const StartCount& counted, CommContext& ctx, std::unique_ptr<Operation> bound,
                  ReissuedOperation::Issue issue, MPI_Request* request) {
  auto op = std::make_unique<ReissuedOperation>(ctx, std::move(issue), std::move(bound), counted);
  StartCount started_as_calls = counted;
  started_as_calls.on = false;  // each issued start counts itself
  return make_persistent_request(std::move(op), process_config().config, request, started_as_calls);
}

KeptType::KeptType(MPI_Datatype type, bool significant) : type_(type) {
  if (!significant || type == MPI_DATATYPE_NULL || is_named(type)) return;
  if (PMPI_Type_dup(type, &type_) == MPI_SUCCESS) owned_ = true;
  else type_ = type;
}

KeptType::~KeptType() {
  int finalized = 0;
  PMPI_Finalized(&finalized);
  // Outside the engine: the duplicate's attribute callbacks, copied from the application's type,
  // may call MPI.
  if (owned_ && !finalized) after_engine([type = type_]() mutable { PMPI_Type_free(&type); });
}

LibraryPersistentOperation::~LibraryPersistentOperation() {
  int finalized = 0;
  PMPI_Finalized(&finalized);
  if (finalized || request_ == MPI_REQUEST_NULL) return;
  after_engine([request = request_]() mutable { PMPI_Request_free(&request); });
}

void LibraryPersistentOperation::begin() {
  rc = MPI_SUCCESS;
  if (const int started = PMPI_Start(&request_); started != MPI_SUCCESS) rc = started;
}

}  // namespace mcorecoll
