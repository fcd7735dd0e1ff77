package vllm

// External DP load balancing, launched by hand: one `vllm serve` per DP
// rank, each with an API server of its own, which an external router (a
// colocated deployment's top-level router: vllm-router) lists as workers.
// What such a per-rank launch writes, and from which release, as read in
// vLLM's source:
//
//   - the v0.9.0 tag (587387724, in the Yuran-7/vllm-0.11 snapshot of
//     upstream main): vllm/engine/arg_utils.py has no --data-parallel-rank;
//     PR #19790 ("[DP] Support external DP Load Balancer mode", commit
//     657f2f301, 2025-07-02) added it, and is not an ancestor of that tag.
//   - the v0.11.0 tag (b8b302cde434): arg_utils.py adds --data-parallel-rank
//     (-dpn, "Data parallel rank of this instance. When set, enables
//     external load balancer mode."), --data-parallel-size,
//     --data-parallel-address and --data-parallel-rpc-port;
//     create_engine_config sets data_parallel_external_lb =
//     data_parallel_rank is not None, asserts "data_parallel_size_local
//     must be 1 when data_parallel_rank is set" (1 or unset) and turns
//     hybrid LB off; vllm/entrypoints/cli/serve.py starts the API server of
//     a rank > 0 only in external or hybrid LB mode (`assert external_dp_lb
//     or hybrid_dp_lb or dp_rank == 0`). docs/serving/data_parallel_deployment.md
//     at the tag ("External Load Balancing"): co-located ranks take the
//     default RPC port and "a different HTTP server port must be specified
//     for each rank" (--port), one GPU set each (CUDA_VISIBLE_DEVICES); for
//     multi-node "the address/port of rank 0 must also be specified"
//     (--data-parallel-address, --data-parallel-rpc-port); "The
//     coordinator process also runs in this scenario, co-located with the
//     DP rank 0 engine." The flag --data-parallel-external-lb does not exist
//     there (flags_table.go: PR #23691, present at 0.16.0) and is not needed:
//     the rank alone selects external LB in every release read (0.11.0,
//     0.16.0's serve.py: is_external_lb = --data-parallel-external-lb or
//     --data-parallel-rank, DPLoadBalancing).
//   - 0.9.1: absent. It was released on 2025-06-10, before PR #19790 was
//     merged (657f2f301, 2025-07-02; the PR's number is above the last
//     merged on the release day, #19418), and upstream main on that day
//     (b6553be1b, 2025-06-10, whose vllm/entrypoints/cli/serve.py is the
//     one docs.vllm.ai/en/v0.9.1 shows: `self.name = "serve"`, `elif
//     args.api_server_count > 1`) has no --data-parallel-rank in
//     vllm/engine/arg_utils.py.
//   - 0.9.2, 0.10.0, 0.10.1, 0.10.1.1, 0.10.2: unknown. Each was released
//     after the merge, and upstream main kept the flag from 657f2f301 to
//     the v0.11.0 tag (`git log -S"'--data-parallel-rank'"` on
//     arg_utils.py in that range: the one commit adding it); main on
//     0.10.0's release day (6d8d0a24c, 2025-07-24) has --data-parallel-rank
//     -dpn "When set, enables external load balancer mode", the
//     data_parallel_external_lb of create_engine_config and serve.py's
//     `assert external_dp_lb or dp_rank == 0`. But no tag of these
//     releases was pinned to a commit (0.10.1 and 0.10.2 were tagged on
//     release branches), so whether each tag holds it was not read.
const srcExtLBLaunch = "vllm/engine/arg_utils.py at the v0.9.0 tag 587387724 (no --data-parallel-rank) and at " + srcTag0110 +
	" (--data-parallel-rank -dpn \"When set, enables external load balancer mode\"; create_engine_config: data_parallel_external_lb = " +
	"data_parallel_rank is not None, \"data_parallel_size_local must be 1 when data_parallel_rank is set\"); vllm/entrypoints/cli/serve.py and " +
	"docs/serving/data_parallel_deployment.md (\"External Load Balancing\": a port per co-located rank, rank 0's address and RPC port on every node) at the same tag; " +
	"PR #19790 ([DP] Support external DP Load Balancer mode, commit 657f2f301, 2025-07-02) added the flag, after 0.9.1's release (2025-06-10; main that day, b6553be1b, has none); " +
	"0.9.2-0.10.2 released after the merge, their tags not read (main kept the flag from 657f2f301 to the v0.11.0 tag; main on 0.10.0's release day, 6d8d0a24c, has it)"

// ExtLBFlag is one flag of a per-rank external-LB launch.
type ExtLBFlag struct {
	// Name is the flag without dashes.
	Name string
	// Use says what the launch gives it.
	Use string
	// Written: the generator writes it on every rank (false: read, and
	// left out on purpose, Use says why).
	Written bool
	Span    Span
	Source  string
}

// extLBSpan: the releases where a per-rank launch works: absent up to
// 0.9.1 (released before PR #19790), read at the v0.11.0 tag, unknown in
// between (0.9.2-0.10.2: released after the merge, tags not read).
var extLBSpan = Span{Since: v092, Confirmed: v0110}

// ExtLBFlags is the table of what one rank's `vllm serve` needs in
// external LB mode, with the releases each was read in.
var ExtLBFlags = []ExtLBFlag{
	{Name: "data-parallel-rank", Use: "the rank's global DP rank: selects external LB (one API server for this rank)", Written: true,
		Span: extLBSpan, Source: srcExtLBLaunch},
	{Name: "data-parallel-size", Use: "the global DP size, identical on every rank", Written: true,
		Span: Span{Since: v084, Confirmed: v090}, Source: srcDPServe + "; " + srcExtLBLaunch},
	{Name: "data-parallel-address", Use: "DP rank 0's node address (its DP coordinator and handshake), identical on every rank", Written: true,
		Span: Span{Since: v084, Confirmed: v090}, Source: srcDPServe + "; " + srcExtLBLaunch},
	{Name: "data-parallel-rpc-port", Use: "DP rank 0's handshake port, identical on every rank (rank 0 binds it, the others dial it)", Written: true,
		Span: Span{Since: v084, Confirmed: v090}, Source: srcDPServe + "; " + srcExtLBLaunch},
	{Name: "port", Use: "the rank's own API port (vllm.port + its place on the node)", Written: true,
		Span: Span{Since: vPre}, Source: srcHostPort + "; " + srcExtLBLaunch},
	{Name: "data-parallel-size-local", Use: "not written: with a rank it must be 1 or unset (vLLM asserts it), and unset is 1",
		Span: Span{Since: v084, Confirmed: v090}, Source: srcExtLBLaunch},
	{Name: "data-parallel-external-lb", Use: "not written: the rank alone selects external LB, and 0.11.0 has no such flag",
		Span: Span{Since: v0111, Confirmed: v0160}, Source: srcFAExternalLB},
	{Name: "data-parallel-hybrid-lb", Use: "not written: hybrid LB is one API server per node, not per rank (and refused with a rank from 0.16.0, LBConflict)",
		Span: Span{Since: v0101, Confirmed: v0110}, Source: srcLBConflict},
}

// ExternalLBLaunch is whether this release runs a per-rank external-LB
// launch (one `vllm serve --data-parallel-rank R --port P` per rank):
// Present from 0.11.0 (read), Maybe for 0.9.2-0.10.2 (released after PR
// #19790, tags not read), Absent before. why words it for messages; since names the first release read
// with it.
func (r Release) ExternalLBLaunch() (p Presence, why string, since Version) {
	p = extLBSpan.In(r.Version)
	switch p {
	case Present:
		why = "vLLM " + r.Version.String() + " runs one `vllm serve --data-parallel-rank R` per rank (external DP load balancing, read at the v0.11.0 tag)"
	case Maybe:
		why = "whether vLLM " + r.Version.String() + " has --data-parallel-rank (external DP load balancing) is unknown: PR #19790 added it to main on 2025-07-02, before this release, but vlaunch read no tag with it before v0.11.0"
	default:
		why = "vLLM " + r.Version.String() + " has no --data-parallel-rank (external DP load balancing came with PR #19790, merged 2025-07-02, after 0.9.1's release)"
	}
	return p, why, extLBSpan.FirstConfirmed()
}

// ExtLBSource cites the external-LB launch table.
func ExtLBSource() string { return srcExtLBLaunch }
