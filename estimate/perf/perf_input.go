package perf

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// DefaultInterGbitPerGPU and DefaultInterLatencyUs describe the inter-node
// fabric assumed when a multi-node input names none: one 400 Gbit/s
// InfiniBand NIC per GPU, as in NVIDIA's HGX reference designs. The report
// states the assumption.
const (
	DefaultInterGbitPerGPU = 400
	DefaultInterLatencyUs  = 2
)

// SetupFromInput builds the step-time model's setup from a resolved Input,
// with the efficiencies in effect for it (EfficiencyFor).
func SetupFromInput(in *input.Input) StepSetup {
	l, n := in.Layout, in.Network
	inter, nics, lat := n.InterGbitPerSPerNIC, n.NICsPerNode, n.InterLatencyUs
	if l.Nodes > 1 && inter <= 0 { // the spec (or the quick form) names no fabric
		inter, nics, lat = DefaultInterGbitPerGPU, l.GPUsPerNode, DefaultInterLatencyUs
	}
	hw := NewHardware(in.GPU, l.GPUsPerNode, n.IntraGBytesPerS, n.IntraLatencyUs, inter, nics, lat)
	if l.Nodes <= 1 {
		hw.InterBytesPerSPerNode, hw.InterLatencyS = 0, 0
	} else if g := n.NVLinkGPUs(l.GPUsPerNode); g > l.GPUsPerNode && mnnvlUsable(in) {
		// The nodes share a multi-node NVLink domain; one smaller than the
		// deployment's GPUs is the domain, a larger one ends at them.
		hw = hw.InNVLinkDomain(min(g, l.Nodes*l.GPUsPerNode))
	}
	s := StepSetup{
		Model: in.Model, HW: hw, TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP, Replicas: l.ReplicaCount(),
		WeightDType: in.WeightsDType, KVDType: in.KVCacheDType,
		A2A: Mechanism(in), CUDAGraphs: in.CUDAGraphs, EnforceEager: in.EnforceEager, DBO: in.DBO(), Eff: EfficiencyFor(in),
	}
	if in.EnableEPLB {
		s.RedundantExperts = in.NumRedundantExperts
	}
	s.Storage = StorageBytesOf(in)
	s.FP8Dispatch = s.A2A.PointToPoint() && s.WeightDType == "fp8"
	if k, ok := vllm.BackendKernels(in.All2AllBackend); ok && s.A2A == vllm.TrafficGather {
		s.A2ANaive = k.NaiveBroadcast
	}
	setSpeculative(&s, in)
	over, _ := vllm.A2AOverMNNVL(in.All2AllBackend)
	s.SetA2AFixed(l.Nodes > 1, over)
	s.IdleRanksSlow, _ = in.Release().IdleDPRanksSlow()
	s.TPAR = tparSetup(in)
	s.DSV4Streams = vllm.DSV4AuxStreams(in.GPU.Vendor)
	// One engine larger than a node runs on Ray unless the release has
	// --nnodes (resolve.placementKind; the bundle does the same).
	s.PPRayDAG = l.Nodes > 1 && l.TP*l.PP > l.GPUsPerNode && in.Release().Defaults().MultiNodeEngine != "nnodes"
	s.DCP = in.DCPSize()
	s.FA2Varlen = FA2VarlenFor(in.Release(), in.GPU, in.Model, in.KVCacheDType == "fp8", nil)
	if in.Model != nil && in.Model.IsMLA() && in.GPU != nil {
		// The backend the deployment resolved (resolve.Deployment.
		// resolveMLABlockSize: the release's default for the GPU and KV
		// dtype, or on AMD what AITER in vllm.env and the block size pick,
		// qa44b F4); the release's default where nothing was resolved.
		s.MLABackend, _ = in.Release().MLABackend(in.GPU.ComputeMajor, in.KVCacheDType == "fp8", in.Model.IsSparseAttention())
		if d := in.Resolved(); d != nil && d.Engine.MLABackend != "" {
			s.MLABackend = d.Engine.MLABackend
		}
	}
	if in.Model != nil && in.Model.IsMoE() {
		s.MarlinMoE = input.MarlinMoE(in).Runs == vllm.Present
	}
	if k, _ := in.Release().Scheduler(); k == vllm.SchedPrefillFirstWhole {
		s.PrefillEager = true // V0 captures decode only
	}
	// Only an explicit --async-scheduling overlaps the host's work with
	// the GPU's (the step takes max(host, GPU), step.go). Releases from
	// 0.14.0 schedule asynchronously by default (vllm.Release.
	// AsyncSchedulingByDefault), and vLLM's source says what that hides
	// (vllm/facts_async_overlap.go, cited): the whole host chain of a step
	// — scheduling, the multiprocess broadcast, input preparation of every
	// sequence, the launches, update_from_output, the outputs — runs while
	// the GPU executes the step before, one step ahead, so it hides up to
	// that step's GPU time and no further; nothing in it is serial beyond
	// the microseconds of handing the sampled tokens back (structured
	// output and penalties aside), and no platform term turns it off (ROCm
	// included). That is the max() below, applied
	// where vllm.Release.AsyncSchedulingFor says async is on. Four trials
	// of it, none adopted:
	//   1. flag only, then the release default: the calibration's vLLM
	//      0.17 and 0.19 runs came out 16–57% too fast.
	//   2. a constant of its own for the host time beside the GPU,
	//      per-sequence loops kept between steps, refitted: dense batch-1
	//      anchors +31%/+41% -> -1%/-15%, but holdout 52 -> 50 of 97
	//      within ±30%, leave-one-source-out coverage 78% -> 75% (dense
	//      TPOT 100% -> 43%), inferencex-828 20 -> 15 of 20 left out.
	//   3. (2026-12-06, before the fused-MoE curves) the release default,
	//      no refit: anchors 4 -> 8 of 16, calibration 125 -> 123 of 155,
	//      coverage 74% -> 73%.
	//   4. (2026-12-06, with the curves; the source-read mechanism above,
	//      replay and check alike) without a refit: calibration 133 -> 131
	//      of 155 within ±30%, dense anchors 6 -> 8 of 16 within ±15% (0 ->
	//      2 of the 5 that count: Llama-8B batch-1 intercepts on H100 +31%
	//      -> -4%, +28% -> -6% with FP8 KV; B200 +41% -> -18%), llm-d's
	//      vLLM 0.24 decode pool TPOT +155% -> +1% (14.5 -> 5.76 ms,
	//      5.70 measured), holdout split 70 of 181 unchanged, coverage 76%
	//      -> 75%; but gpt-oss-120b on one MI300X (0.17, 64–256 sessions)
	//      +11% -> +32% (c256 +24% -> +57%), Llama-8B 20K/2K at 8 sessions
	//      (0.19) -1% -> +19%, aiconfigurator's dense throughput rows won
	//      6 -> 4 (its standing guard fails; cannot-follow median 21.6%
	//      -> 22.3%). With the one global refit (worst |log error| 0.667 ->
	//      0.662; hbm stopped at its 0.60 bound, i.e. the fit wanted the
	//      GPU slower still; measured_compute 0.421 -> 0.467, measured_hbm
	//      0.998 -> 0.940, expert_hbm 0.820 -> 0.876, attention 0.776 ->
	//      0.750, step_overhead_s 2.26 -> 2.17 ms, multiproc_step_s 1.84 ->
	//      1.93 ms): calibration 137 of 155, anchors 10 of 16 (4 of 5 that
	//      count), aiconfigurator's MoE rows won 76 -> 81 of 108, cannot-
	//      follow median 20.6%, llm-d TPOT +2% — but the holdout split 70
	//      -> 69, aiconfigurator's dense throughput won 6 -> 2 (dense TPOT
	//      median 19% -> 22%), and calibrate's acceptance test failed (a
	//      cluster's constants 32.8% on its held-out 32K burst, the global
	//      ones 18.1%), as the refit without the overlap did. Held-out
	//      evidence got worse: not adopted. (Its leave-one-source-out
	//      refits were stopped unfinished, about 13 minutes a source on a
	//      loaded machine, so loso.json and band coverage are not measured
	//      with it.)
	// The two runs that disagree are not host-bound by vLLM's source: the
	// MI300X one is MXFP4 experts on CDNA3 (no measured kernel table; even
	// serial it is +24% fast at 256 sessions, growing with the batch) and
	// in the 20K/2K one each of 8 sessions prefills a 20K-token prompt
	// every 2K tokens it decodes, so prefill and long-context attention
	// weigh on it; with the host serial the fitted constants let host time
	// stand in for GPU time (the refit pressing hbm to its bound says so).
	// Adopting the overlap wants those GPU terms right first (issue #28).
	//   5. (2026-12-06, the GPU terms examined) MI300X: vLLM 0.17 runs
	//      gpt-oss's experts with OpenAI's triton_kernels matmul_ogs, BF16
	//      MMAs on upcast MXFP4 (vllm.Release.MXFP4MoEBackendROCm); no
	//      kernel-level timing of it on gfx942 was found (vllm PR #55934
	//      has end-to-end TP8 figures only), so its term stays the fitted
	//      ExpertGEMM/ExpertHBM roofline: per decode step at 64 sessions
	//      experts 20.5 ms, attention 1.2, dense 1.0, kernel gaps 3.6, host
	//      4.1 (30.5 ms); at 256: experts 24.2, attention 4.9, dense 1.1,
	//      gaps 3.6, host 9.8 (43.6 ms). Sessions over output throughput
	//      (prefill included) grow 146 µs per session from 64 to 256
	//      measured (31.9 -> 59.9 ms), 86 µs replayed with the host serial
	//      (31.7 -> 48.2), 56 µs with it hidden (27.5 -> 38.2): the missing
	//      growth is GPU time no cited table attributes.
	//      Llama-8B 20K/2K (H100, 8 sessions): a decode step of 8 × 21K is
	//      dense 5.05 ms, attention 7.67 (KV at 0.888 of datasheet + 0.27
	//      fixed), gaps 0.87, host 2.49; aiconfigurator's FA3 table gives
	//      210 µs per layer at 8 × 16K (76% of HBM) against the model's
	//      189, ~260 interpolated at 8 × 21K against 245: attention ~6%
	//      fast, ~0.5 ms of the 2.5 ms the overlap hides; prefill GEMMs
	//      and FA3 prefill run at MeasuredCompute 0.421 of their tables,
	//      slow rather than fast. Timing decode attention by the table's
	//      latency-by-KV-bytes curve (all GPUs it covers) was tried on its
	//      own: calibration 133 -> 132 of 155, holdout 74 -> 74 of 187,
	//      coverage 89% -> 89%, anchors 6 -> 7 of 16 (but the H100 batch-1
	//      ITL slope +1% -> +12%: the table's 1 × 16-64K calls are slower
	//      than that published serving slope), aiconfigurator's dense
	//      throughput won 6 -> 5 and all compared 93 -> 92 of 141: not
	//      adopted. The overlap (release default, no refit): without the
	//      curve calibration 133 -> 131, holdout 74 -> 70 (sources 10 ->
	//      9), coverage 89% -> 90%, anchors 6 -> 8 (0 -> 2 of 5 that
	//      count), aiconfigurator dense throughput 6 -> 4, cannot-follow
	//      median 21.6% -> 23.1%, llm-d decode TPOT +155% -> +1%, MI300X
	//      c64 +1% -> +16%, c256 +24% -> +57%, 20K/2K +0% -> +17% (FP8 KV
	//      -1% -> +19%); with the curve calibration 130, holdout 70,
	//      coverage 90%, anchors 9 (2 of 5), dense throughput 4, llm-d +2%,
	//      20K/2K +13% (+16%). Not adopted: no evidence-backed GPU term
	//      closes the gap, and held-out results get worse.
	//   6. (2026-12-06, session 29, the GEMM tables on since trial 5, the
	//      release default in the replay's vLLM rows, no refit): dense
	//      anchors 9 -> 13 of 17 within ±15% (1 -> 5 of the 6 that count),
	//      but calibration 135 -> 131 of 155, holdout split 78 -> 73 of 187,
	//      coverage 91% -> 91%, aiconfigurator's dense throughput 6 -> 4 won;
	//      what turns fast is the same GPU time no table prices: MI300X
	//      gpt-oss c256 +24% -> +57%, Llama-8B 20K/2K +11% -> +32%/+36%, and
	//      the held-out DeepSeek-V4-Flash on H100 (vLLM 0.31 dev: FP4
	//      experts on Hopper, sparse attention) batch 1 −6% -> +72% (8.5 ms
	//      a token measured, 4.9 modelled GPU). gpt-oss on H100 (inferencex-
	//      828, MXFP4 with a measured table) stays within ±30%. Not adopted.
	//   7. (2026-12-06, session 30, branch v4census: DeepSeek-V4's decode
	//      layer and the DSA indexer counted kernel by kernel in
	//      eagerLayers, no refit) V4-Flash goes from 31 kernels a layer (it
	//      went through the GQA row) to 47.2 (39 / 42 / 53 in its
	//      sliding-window, C128A and C4A layers): 1,341 -> 2,039 a step,
	//      kernel gaps 3.3 -> 5.0 ms on H100, GPU time at batch 1 and 1K
	//      context 4.7 -> 6.4 ms (7.68 ms TPOT measured). With the overlap
	//      the six held-out V4-Flash figures go +72/+64/+57/+42/+49/+42% ->
	//      +26/+33/+25/+31/+32/+37%, calibration 133 -> 133 of 157, holdout
	//      79 -> 81 of 208; without it (the default, committed) -6/+6/-2/
	//      +17/+14/+31% -> -22/-8/-16/+9/+4/+27%, calibration 137 -> 137,
	//      holdout 84 -> 85.
	//   8. (2026-12-06, issue #28, the 20K/2K rows term by term) Most of
	//      their "missing time" was the replay's lengths: it read range
	//      ratio 0.15 as SGLang's [r, 1] (11.5K/1.15K tokens a request), the
	//      rows' own rate × duration say 2,019 output tokens a request
	//      (vLLM's bench serve: [1 − r, 1 + r]; estimate/replay spread). At
	//      the published lengths, overlap on: +32% -> +5% (BF16 KV), +36% ->
	//      +17% (FP8 KV); off: -8%, -2%. Decode step at 8 × 21K, overlap on:
	//      BF16 dense 5.60 + attention 7.67 + gaps 0.56 = 13.83 ms against
	//      ITL median 15.18 (aiconfigurator's vLLM 0.19.0 FA3 table, commit
	//      f93be4ae: 238 µs a layer, 7.61 ms: attention is right); FP8 KV
	//      10.13 against 12.93, of which FA3's FP8-KV decode explains ~0.5–
	//      0.7 ms (the same table: ~146 µs a layer against the model's 124;
	//      fit over KV ≥ 128 MiB 20.9 µs + 0.164 µs/seq at 0.90 of HBM, BF16
	//      10.3 µs + 0.149 at 0.97; the post's batch-1 anchors: intercept
	//      +0.14 ms, slope 54% of BF16's where the bytes give 50%), not
	//      built (no FP8-KV rows in tools/aicdata's pinned tables). ~1.35 ms
	//      (BF16) and ~1.5–2 ms (FP8) a step stay unattributed: between the
	//      hidden host (2.49 ms) and none of it. Prefill (8,192-token chunks,
	//      vllm.Release.BatchDefaults) 217 + 337 + 187 ms with 7 decodes
	//      beside: TTFT p50 816 ms against 763.6; stalls ~4.7 s a request
	//      against ~4.5 s measured.
	//   9. (2026-12-06, branch v4aux: V4's kernel gaps count the critical
	//      path, the aux streams' kernels in the main stream's shadow free —
	//      eager.go dsv4HiddenKernels; 39 / 39 / 45 a layer at ≤ 1,024
	//      tokens, no refit) the six held-out V4-Flash figures, overlap on:
	//      +26/+33/+25/+31/+32/+37% -> +37/+42/+34/+34/+37/+39%,
	//      calibration 137 -> 137 of 160, holdout 93 -> 91 of 230; off
	//      (committed): -22/-8/-16/+9/+4/+27% -> -18/-4/-12/+12/+7/+28%,
	//      calibration 139 -> 139, holdout 97 -> 97.
	//  10. (2026-12-06, branch v4gpu: the six V4-Flash rows' decode steps
	//      term by term against the source's own kernel trace, tant2tls/
	//      Deepseek-serving reports/blog-architecture-h100-v1/components.csv
	//      at 84d04315, replay -run TestV4GPUTerms -v4gpu) batch 1, 1K:
	//      modelled GPU 5.87 ms (dense 0.58, attention 0.33, experts 0.33,
	//      TP 0.19, 1,811 critical kernels × 2.45 µs = 4.44) against a
	//      profiled step span of 8.01 ms (client 8.19; 7.68 unprofiled),
	//      1,963 kernels and 10.35 ms of kernel time a rank. The one
	//      mechanism found and cited, the EP straggler (UseEPStraggler,
	//      epstraggler.go: the busiest rank's experts, 2.10 against 0.75 a
	//      layer at batch 1), adds 0.60 / 1.40 ms at batch 1 / 8; overlap
	//      on: +37/+42/+34/+34/+37/+39% -> +25/+23/+25/+27/+32/+36%,
	//      calibration 137 -> 137 of 160, holdout 110 -> 113 of 298; off:
	//      -18/-4/-12/+12/+7/+28% -> -22/-13/-16/+6/+4/+26%, calibration
	//      139 -> 139, holdout 116 -> 115 (one flip elsewhere, InferenceX
	//      DeepSeek-R1 FP4 B300 TP4EP4 c32 -30% -> -33%). Left off. V4's
	//      dense projections priced from the GEMM tables (fp8_block, M = 1:
	//      5.1–9.1 µs a GEMM with its quantization) moved the batch-1 step
	//      only +0.05 ms — the tables agree with bytes + two gaps — and
	//      made the prefill-heavy rows faster (64K c8 +36% -> +46%):
	//      dropped. What stays unpriced at batch 1 (~1.2 ms with both on),
	//      by the trace's kernel sums against roofline + census × 2.45 µs:
	//      FlashMLA sparse decode 0.97 ms (22.5 µs a layer, flat with
	//      context and batch) against 0.54; the MoE expert GEMMs 1.29 on
	//      the mean rank (HUMMING, 15 µs a call at 0.75 experts) against
	//      0.54; mHC / norms 1.54 against 0.75; dense GEMMs 3.53 (+ 0.16
	//      quantization) against 1.57 + 0.58; the small element-wise
	//      kernels (RoPE / KV insert / compressor 0.22, quantization 0.16,
	//      routing 0.88) priced above it (0.67, 0.58, 1.16). No source
	//      independent of the held-out one times FlashMLA's sparse decode
	//      or HUMMING at M ≤ 8 on Hopper, so none was built. The step
	//      model also prices V4's routed experts as the dense dtype (block
	//      FP8: 1.0 byte a weight, the FP8 curve) where vLLM loads FP4
	//      (catalog.DeepseekV4.ExpertDType, Mxfp4MoEMethod; the memory model
	//      knows it, estimate/memory memory_dtype.go): 0.53 byte would take
	//      the batch-8 expert term 2.46 -> ~1.3 ms, while the trace's HUMMING
	//      experts take 3.67 ms on the mean rank (~0.87 TB/s of the FP4
	//      weights hit) and 155 ms for an 8,192-token chunk (~86 TFLOPS, 9%
	//      of the BF16 peak; the model 74 ms). Correcting the bytes without
	//      HUMMING's cost would make every V4 row faster still.
	//  11. (2026-12-06, branch onefact: the step model streams each
	//      component at input.StorageRule's bytes, UseStorageRuleBytes,
	//      storage.go; V4-Flash's experts 1.0 -> 0.53 B a weight) overlap
	//      off: the six V4-Flash figures -18/-4/-12/+12/+7/+28% ->
	//      -16/+5/-11/+16/+8/+30%; calibration 139 -> 139 of 160, holdout
	//      unchanged. As foreseen, the FP4 bytes make V4 faster, most at
	//      batch 8 (1K +9%); HUMMING's cost stays unpriced.
	//  12. (2026-12-06, branch v4time: UseV4KernelFloors, v4floors.go —
	//      FlashMLA's sparse decode priced by its own split-KV scheduler,
	//      6 block-times of 2.526 µs a call at batch ≤ 8 on H100/H200, from
	//      the deep dive's published 460 TFLOPS; committed on) per kernel
	//      class against the trace (TestV4GPUTerms), batch 1 / 8 at 1K:
	//      FlashMLA decode 0.54 -> 0.76 ms against 0.97 / 1.01 (the
	//      split-KV kernel 15.2 µs a call against 16.7 / 17.0 traced; its
	//      combine, 5.9 / 6.6 µs, and get_mla_metadata, 4 calls of ~26 µs
	//      a step, stay at the kernel gap); mHC 0.43 / 0.46 against 1.54 /
	//      2.19; the HUMMING experts 0.39 / 1.52 against 1.29 / 3.67;
	//      modelled GPU 5.93 / 7.11 against a profiled span of 8.01 /
	//      11.13 ms. Overlap off: the six V4-Flash tok/s figures -16/+5/
	//      -10/+16/+8/+30% -> -18/+4/-12/+15/+7/+30%, their median TPOTs
	//      +28/+4/+27/+5/+26/-25% -> +31/+6/+29/+6/+29/-25% (1k-c1 leaves
	//      ±30%: with the host serial the batch-1 rows are already slow);
	//      calibration 164 -> 164 of 184, holdout 113 -> 112 of 263,
	//      anchors 12 -> 12 of 17. Overlap on (not committed): tok/s +41/
	//      +61/+37/+40/+38/+40% -> +36/+58/+33/+39/+37/+40%, median TPOT
	//      -26/-36/-26/-14/-27/-31% -> -23/-34/-24/-14/-24/-31%;
	//      calibration 161 -> 161, holdout 105 -> 105, anchors 15 -> 15 of
	//      17 (6 of 6 that count). mHC (vLLM's TileLang kernels:
	//      mhc_fused 12.9 / 20.0 µs and pre_big_fuse 5.0 / 5.4 µs a call,
	//      4 a layer, latency-bound — big_fuse is one 96-thread CTA a
	//      token) and HUMMING (16.7 + 13.4 µs a layer at 0.75 experts) stay
	//      unpriced beyond the gap: the one public timing of vLLM's mHC
	//      kernels at V4-Flash's shape (mirage-project/mirage PR #677: 20.2
	//      µs a post -> pre boundary, flat from 1 to 16 tokens) does not
	//      name its GPU, and no timing of HUMMING's MoE GEMM at M ≤ 8 on
	//      Hopper independent of the held-out trace was found.
	//  13. (2026-12-06, branch asyncov, main 54c6a7d5) the source read
	//      again (vllm/facts_async_overlap.go, "Checked again"): the step is
	//      max(GPU, host chain), the max() below; what stays on the GPU's
	//      path beyond it is the sampler's eager kernels and the H2D input
	//      copies (≈20–30 µs a step at batch 1 on H100, booked in
	//      StepOverheadS, not split out) and the tokens' hand-off
	//      (microseconds): no un-overlappable part the rows could see. The
	//      switch on moves 11 figures across ±30% (replay -run
	//      TestAsyncOverlapFlips -asyncflips): the six V4-Flash rows (tok/s
	//      -18/+4/-12/+15/+7/+30% -> +36/+58/+33/+39/+37/+40%; TPOT 1k-c1
	//      +31% -> -23%, 1k-c8 +6% -> -34%, 64k-c8 -25% -> -31%), MI300X
	//      gpt-oss c128/c256 tok/s +15%/+27% -> +32%/+57% and c256 TPOT
	//      -22% -> -37%, pegainfer c2 TTFT P99 -28% -> -32%. No refit:
	//      calibration 168 -> 165 of 184, holdout split 137 -> 129 of 287,
	//      dense anchors 12 -> 15 of 17 (3 -> 6 of the 6 that count: H100 /
	//      B200 Llama-8B intercepts 7.49 / 4.62 -> 6.28 / 3.41 ms against
	//      6.44 / 3.93; FP8 KV 7.49 / 4.62 -> 6.28 / 3.41 against 6.58 /
	//      3.96), aiconfigurator's dense throughput guard fails (median
	//      2.6% -> 3.9%). One global refit with the switch on (worst |log
	//      error| 0.825 -> 0.720, measured_hbm at its bound; measured_compute
	//      0.421 -> 0.514, gemm_fp8 0.789 -> 0.859, attention 0.776 ->
	//      0.811, expert_hbm 0.820 -> 0.785, kernel_gap_s 5.53 -> 5.96 µs,
	//      step_overhead_s 1.18 -> 1.23 ms, multiproc_step_s 2.89 -> 2.54
	//      ms, sglang_eager_per_layer_s 896 -> 725 µs, frontend_request_s
	//      4.47 -> 4.04 ms, frontend_token_s 2.2 -> 3.6 µs): calibration
	//      170 of 184, anchors 15 of 17 (6 of 6), the four regimes at the
	//      bar keep it (MoE throughput 81% / 13%, MoE TPOT 84% / 14%,
	//      moe-ep throughput 91% / 12%, moe-ep TPOT 83% / 13%), but the
	//      holdout split 137 -> 128 of 287 (tant2tls 11 -> 4,
	//      gpustack-qwen3-14b-h100 5 -> 2, gpustack-glm45air-h100 17 -> 15,
	//      gpustack-qwen3-14b-a100 12 -> 11, dstack-llama405 4 -> 3;
	//      inferencex-pr-3183 26 -> 29, dstack-dsr1 2 -> 3,
	//      sglang-cookbook-step35-h200 3 -> 4) and aiconfigurator's dense
	//      throughput won 6 -> 5 of 6 (its guard fails); the same
	//      constants with the switch off: calibration 172, holdout split
	//      135, anchors 12 of 17 (the switch itself costs the split 7, all
	//      V4-Flash). Not adopted (the
	//      rule: anchors up, holdout split not below 137, calibration ≥ 166,
	//      the four regimes kept): the V4-Flash rows lack ~2.1 ms of GPU
	//      time at batch 1 (modelled 5.93 against the trace's 8.01 ms span:
	//      mHC 0.43 vs 1.54, HUMMING experts 0.39 vs 1.29, FlashMLA 0.76 vs
	//      0.97 ms), and the H100 timings found for mHC are other engines'
	//      kernels (tokenspeed PR #529: 81 -> 16.5 µs a post+pre boundary,
	//      its own Triton/TRT-LLM kernels; QuACK PR #130 and vLLM PR #56962
	//      time TileLang / Mega-mHC on Blackwell), none vLLM 0.31's TileLang
	//      kernels on H100, so nothing was priced.
	if f := in.AsyncSchedulingFlag(); f != nil {
		s.OverlapHost = *f
	}
	if UseAsyncOverlap && in.AsyncScheduling() {
		s.OverlapHost = true
	}
	return s
}

// UseAsyncOverlap: the release's async-scheduling default overlaps the
// host's work with the GPU's as an explicit --async-scheduling does: the
// step takes max(GPU, host chain), which is what vLLM's source says such
// an engine does (vllm/facts_async_overlap.go); the replay's vLLM rows and
// check follow it alike. On since session 40. Measured with it on (off in
// brackets): holdout split 372 (348) of 575, calibration 203 (206) of 220,
// dense anchors that count 6 (3) of 6, dense TPOT 96% (63%) within ±30%,
// median 11% (19%). What it exposed, still unpriced: the fixed-length
// closed loops' TTFT (waves or trains, docs/calibration-analysis.md) had
// cancelled a too-slow step, so dense closed-loop throughput now errs
// high (median 10% -> 20%); MI300X gpt-oss at 128/256 sessions (+14/+25%
// -> +31/+54%); DeepSeek-V4-Flash on H100 (the GPU time trial 13 above
// names: mHC, HUMMING experts, FlashMLA).
var UseAsyncOverlap = true

// AsyncScheduling reports whether the deployment's engine schedules the
// next step while the GPU runs this one (input.Input.AsyncScheduling). The
// simulation takes the one-step admission lag from it (sim.Config.
// ScheduleAhead); the step model's host overlap stays with the flag alone
// (above).
func AsyncScheduling(in *input.Input) bool { return in.AsyncScheduling() }

// setSpeculative carries the deployment's speculative decoding into the
// step model: the drafts verified per step, the tokens emitted per step
// and the proposer the draft passes run (none for n-gram).
func setSpeculative(s *StepSetup, in *input.Input) {
	sp := in.Speculative
	if sp == nil {
		return
	}
	s.SpecTokens, s.SpecAccepted = sp.NumTokens, sp.Acceptance.Value
	d := sp.Draft
	if d == nil {
		s.SpecDraft = &Drafter{CPU: true}
		return
	}
	s.SpecDraft = &Drafter{Layers: d.Layers, FuseParams: d.FuseParams, HeadVocab: d.HeadVocab, WeightDType: d.WeightsDType}
	if din, ok := input.DraftInput(in); ok {
		s.SpecDraft.Storage = StorageBytesOf(din)
	}
}

// Mechanism is the traffic pattern of the MoE layers' token exchange:
// none for a dense model or DP = 1, otherwise the backend's (vllm.TrafficOf:
// without the all2all kernels vLLM's MoE layers still gather the tokens of
// every DP rank).
func Mechanism(in *input.Input) vllm.Traffic {
	if !in.Model.IsMoE() || in.Layout.DP <= 1 {
		return vllm.TrafficNone
	}
	return vllm.TrafficOf(in.All2AllBackend)
}

// mnnvlUsable: the release lets NCCL use multi-node NVLink (releases that
// set NCCL_CUMEM_ENABLE=0 themselves switch it off, vllm.Release.
// CuMemForcedOff; validate warns, SPEC134). Where that is only possible
// (Maybe) the domain is used and the warning says so.
func mnnvlUsable(in *input.Input) bool {
	p, _ := in.Release().CuMemForcedOff()
	return p != vllm.Present
}

// tparSetup is what the release reads to pick its TP all-reduce kernel.
func tparSetup(in *input.Input) TPARSetup {
	return TPARSetupFor(in.Release(), in.GPU, in.MaxNumBatchedTokens)
}

// TPARSetupFor is what release rel reads on GPU g to pick its TP
// all-reduce kernel; maxBatched is max_num_batched_tokens (0: unknown).
func TPARSetupFor(rel vllm.Release, g *catalog.GPU, maxBatched int) TPARSetup {
	t := TPARSetup{Known: true, Release: rel, MaxBatchedTokens: maxBatched}
	if g != nil {
		t.SM = g.ComputeMajor * 10
		if g.ID == "b300" || g.ID == "gb300" {
			t.SM = 103 // Blackwell Ultra: compute capability 10.3
		}
	}
	return t
}
