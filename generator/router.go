package generator

import "github.com/vlaunch/vlaunch/diag/codes"

// CodeRouter: a router in front of a colocated deployment (top-level
// router:) that the bundle cannot start (validate.BundleRefusals: routerRefusal).
const CodeRouter = codes.GenRouter

// How a router can address a colocated deployment's DP ranks: check
// simulates vllm-router in front of the DP ranks, and a router can address
// a rank in one of two ways:
//
//   - external DP load balancing: every rank its own `vllm serve
//     --data-parallel-rank R` with a port of its own (vllm.DPLoadBalancing's
//     LBExternal: "External load balancer - client per DP rank" in
//     vllm/v1/engine/core_client.py, Yuran-7/vllm-0.11 @2665d4910; the flag
//     read at the v0.11.0 tag, absent at v0.9.0, vllm.ExtLBFlags;
//     --data-parallel-external-lb from PR #23691, present at 0.16.0;
//     --data-parallel-multi-port-external-lb, one API server per local
//     rank on --port + local rank, from 0.20-0.22), listed by the router as
//     --worker-urls;
//   - the X-data-parallel-rank header on an internal-LB server: vllm-router
//     --intra-node-data-parallel-size N turns each worker URL into N
//     DP-aware workers and sends the header (vllm-project/router@03e9af5c
//     src/main.rs), which the API server passes on as data_parallel_rank
//     (PR #24945, "Enable DP-aware routing in OpenAI API requests", opened
//     2025-09-16); the v0.11.0 snapshot's vllm/entrypoints/openai reads no
//     such header (core_client.py honours request.data_parallel_rank, set
//     only through the engine API), so its first release is after 0.11.0
//     and otherwise unknown.
//
// vlaunch writes the first (extlb.go); validate.BundleRefusals refuses what it
// cannot write.
