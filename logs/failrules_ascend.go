package logs

import (
	"fmt"
	"regexp"
	"strings"
)

// Ascend NPU device errors (LOG198). torch_npu and CANN print them past
// vLLM's logger, so most lines carry no process prefix; vLLM's engine core
// relays the worker's ("RuntimeError: Worker failed with error 'The Inner
// error is reported as above …'" and the "[ERROR] … ERR00100 PTA call acl
// api failed" line inside it). The lines, as vllm-project/vllm-ascend#5493
// (2 × 8 910B, DP2 TP8 EP, vLLM 0.13.0) and #4972 (DeepSeek-V3.2) show them:
//
//	torch.distributed: [ERROR] … NPU function error: acl::AclQueryEventRecordedStatus(event_, &currStatus), error code is 507014
//	[ERROR] 2025-12-29-13:22:36 (PID:1270, Device:6, RankID:-1) ERR00100 PTA call acl api failed
//	[Error]: The aicore execution times out.
//	EH9999: Inner Error!
//	        rtEventQueryStatus execute failed, reason=[aicore timeout]
//	Aicore kernel execute failed, device_id=0, …, fault kernel_name=MoeDistributeDispatchV2_…, …
//
// 507014 is the runtime's AI Core timeout (the "[aicore timeout]" reason
// next to it in both threads); ERR00100 is torch_npu's "an ACL call
// failed", whose cause is the CANN error printed with it; "The Inner
// error is reported as above" is torch_npu's exception text for them.
var (
	npuAnchors = []string{"The Inner error is reported as above", "error code is 507014", "The aicore execution times out", "[aicore timeout]",
		"ERR00100 PTA call acl api failed", "EH9999: Inner Error", "EZ9999: Inner Error", "fault kernel_name="}
	npuKernel   = regexp.MustCompile(`fault kernel_name=([A-Za-z0-9_]+)`)
	npuOperator = regexp.MustCompile(`(?:current working operator name is|call) (aclnn[A-Za-z0-9_]+)`)
)

// npuNote is what the Ascend lines of one file said, gathered into its
// one LOG198 failure.
type npuNote struct {
	timeout        bool
	kernel, op     string
	shmWaits       int
	firstShmWaitAt int
}

// ascendDeviceRules recognise the Ascend device errors, and count the
// shared-memory broadcast waits a stall shows before them.
func ascendDeviceRules() []rule {
	npu := r(npuAnchors, "", func(c *ctx, _ [][]byte) {
		c.noted = true
		f := c.npuFailure()
		if f == nil {
			return
		}
		n := f.npu
		msg := string(c.l.msg)
		n.timeout = n.timeout || strings.Contains(msg, "507014") || strings.Contains(msg, "aicore execution times out") || strings.Contains(msg, "[aicore timeout]")
		if m := npuKernel.FindStringSubmatch(msg); m != nil && n.kernel == "" {
			n.kernel = m[1]
		}
		if m := npuOperator.FindStringSubmatch(msg); m != nil && n.op == "" {
			n.op = m[1]
		}
	})
	// vLLM's shm_broadcast.py, every 60 s a reader waits on its peers
	// (rules.go's waitRule says the process waits); counted here so that a
	// device error after them says how long the engine had been stuck.
	shm := r(one("No available shared memory broadcast block found"), "", func(c *ctx, _ [][]byte) {
		c.f.shmWaits++
		if c.f.firstShmWait == 0 {
			c.f.firstShmWait = c.l.no
		}
	})
	return []rule{npu, shm}
}

// npuFailure is the file's one LOG198 failure (per attempt), created on
// the first Ascend device line: the relay by the engine core, the
// unprefixed CANN lines and the "[rankN]:" ones all describe one error.
func (c *ctx) npuFailure() *failure {
	for _, f := range c.a.fails.list {
		if f.code == CodeAscendDevice && f.p.file == c.p.file && f.p.attempt == c.p.attempt {
			f.count++
			return f
		}
	}
	f := c.fail(CodeAscendDevice, "an Ascend NPU runtime call failed (ERR00100 PTA call acl api failed)", "")
	if f != nil {
		f.npu = &npuNote{shmWaits: c.f.shmWaits, firstShmWaitAt: c.f.firstShmWait}
	}
	return f
}

// epDispatchKernel marks the MoE expert-parallel dispatch and combine
// kernels (MoeDistributeDispatch/-Combine, V2 included): they wait on
// every EP peer, so a stalled or dead peer times them out.
var epDispatchKernel = regexp.MustCompile(`^MoeDistribute(?:Dispatch|Combine)`)

// npuMessage words a LOG198 once the whole log is read: what failed, the
// kernel or operator the device was running, and the stall before it.
func (a *analyzer) npuMessage(f *failure) (string, string) {
	n := f.npu
	msg := "an Ascend NPU runtime call failed (torch_npu ERR00100: an ACL call returned an error)"
	if n.timeout {
		msg = "an Ascend NPU operator timed out on the device: the AI Core execution times out (error 507014)"
	}
	switch {
	case n.kernel != "" && n.op != "":
		msg += fmt.Sprintf("; the faulting kernel is %s (the host was issuing %s)", n.kernel, n.op)
	case n.kernel != "":
		msg += "; the faulting kernel is " + n.kernel
	case n.op != "":
		msg += "; the operator reported is " + n.op + " (launched asynchronously, so it may not be the one that hung)"
	}
	if n.shmWaits > 0 {
		msg += fmt.Sprintf("; before it the engine waited %d× 60 s on its workers (shm_broadcast, from %s:%d): no progress for at least %d min",
			n.shmWaits, a.files[f.at.file].name, n.firstShmWaitAt, n.shmWaits)
	}
	fix := f.fix
	if epDispatchKernel.MatchString(n.kernel) {
		fix += " Here it is the MoE expert-parallel dispatch/combine kernel, which waits for tokens from every EP peer on every node: " +
			"the network interface variables are not the first suspect, and raising HCCL_EXEC_TIMEOUT (HCCL's execution timeout) helps only a slow peer, not a dead one."
	}
	return msg, fix
}
