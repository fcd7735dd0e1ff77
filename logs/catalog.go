package logs

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// Failure kinds: what broke, in the terms of issue 14.
const (
	KindOOMLoading = "oom_loading"
	KindOOMRuntime = "oom_runtime"
	// KindOOMUnknownPhase: an out-of-memory the log places in neither
	// (LOG104); its message says so too, from the same decision (settle).
	KindOOMUnknownPhase     = "oom_unknown_phase"
	KindKVCacheInsufficient = "kv_cache_insufficient"
	KindNCCL                = "nccl"
	KindGlooInterface       = "gloo_interface"
	KindDeepEPNVSHMEM       = "deepep_nvshmem"
	KindDPHandshake         = "dp_handshake"
	KindRayPlacement        = "ray_placement"
	KindCUDAGraph           = "cuda_graph"
	KindVersionFlag         = "version_flag"
	KindKVTransfer          = "kv_transfer"
	KindOther               = "other"
)

// Kinds lists every failure kind, in the order reports and docs use.
var Kinds = []string{KindOOMLoading, KindOOMRuntime, KindOOMUnknownPhase, KindKVCacheInsufficient, KindNCCL, KindGlooInterface,
	KindDeepEPNVSHMEM, KindDPHandshake, KindRayPlacement, KindCUDAGraph, KindVersionFlag, KindKVTransfer, KindOther}

// Codes of the findings `vlaunch logs` reports; the catalog (diag/codes)
// holds each one's name, severity, summary and page, whose **Fix:**
// paragraph the report quotes.
const (
	CodeStopped          = codes.LogStopped
	CodeEnds             = codes.LogEnds
	CodeOOMLoading       = codes.LogOOMLoading
	CodeFreeMemory       = codes.LogFreeMemory
	CodeOOMRuntime       = codes.LogOOMRuntime
	CodeOOMUnknownPhase  = codes.LogOOMUnknownPhase
	CodeRuntimeFailure   = codes.LogRuntimeFailure
	CodeNoKVMemory       = codes.LogNoKVMemory
	CodeMaxLenTooLong    = codes.LogMaxLenTooLong
	CodeMambaBlocks      = codes.LogMambaBlocks
	CodeNCCL             = codes.LogNCCL
	CodeGlooInterface    = codes.LogGlooInterface
	CodeGlooConnect      = codes.LogGlooConnect
	CodeGlooLoopback     = codes.LogGlooLoopback
	CodeDeepEP           = codes.LogDeepEP
	CodeDPTimeout        = codes.LogDPTimeout
	CodeDPConfig         = codes.LogDPConfig
	CodeRayNoGPU         = codes.LogRayNoGPU
	CodeRayWaiting       = codes.LogRayWaiting
	CodeCUDAGraph        = codes.LogCUDAGraph
	CodeUnknownFlag      = codes.LogUnknownFlag
	CodeDeprecated       = codes.LogDeprecated
	CodeWorldSize        = codes.LogWorldSize
	CodeUnsupportedArch  = codes.LogUnsupportedArch
	CodeTransformersType = codes.LogTransformersType
	CodeOther            = codes.LogException
	CodeEngineDiedSilent = codes.LogEngineDiedSilent
	CodeGlooTimeout      = codes.LogGlooTimeout
	CodeDPGlooTimeout    = codes.LogDPGlooTimeout
	CodeDPBind           = codes.LogDPBind
	CodeDPHostname       = codes.LogDPHostname
	CodeErrorLine        = codes.LogErrorLine
	CodeWorkerDied       = codes.LogWorkerDied
	CodeIterTimeout      = codes.LogIterationTimeout
	CodeDeepGEMM         = codes.LogDeepGEMM
	CodeNixlEngineID     = codes.LogNixlEngineID
	CodeKVLeaseExpired   = codes.LogKVLeaseExpired
	CodeNixlSideChannel  = codes.LogNixlSideChannel
	CodeNixlMissing      = codes.LogNixlMissing
	CodeUCXTransports    = codes.LogUCXTransports
	CodeUCXGID           = codes.LogUCXGID
	CodeNixlTPRatio      = codes.LogNixlTPRatio
	CodeNixlBackend      = codes.LogNixlBackend
	CodeNixlHandshake    = codes.LogNixlHandshake
	CodeHMAOff           = codes.LogHMAOffKVTooSmall
	CodeHMAOffUnify      = codes.LogHMAOffUnify
	CodeMooncakeTransfer = codes.LogMooncakeTransfer
	CodeAscendDevice     = codes.LogAscendDevice
	CodeMLAKVReshape     = codes.LogMLAKVReshape
)

// kindOf is the failure kind of each code. A stop (LOG001) and an end
// (LOG002) take their kind from the phase the log ends in instead.
var kindOf = map[diag.Code]string{
	CodeOOMLoading: KindOOMLoading, CodeFreeMemory: KindOOMLoading, CodeOOMRuntime: KindOOMRuntime,
	CodeOOMUnknownPhase: KindOOMUnknownPhase,
	CodeRuntimeFailure:  KindOther,
	CodeNoKVMemory:      KindKVCacheInsufficient, CodeMaxLenTooLong: KindKVCacheInsufficient, CodeHMAOff: KindKVCacheInsufficient,
	CodeMambaBlocks:   KindKVCacheInsufficient,
	CodeNCCL:          KindNCCL,
	CodeGlooInterface: KindGlooInterface, CodeGlooConnect: KindGlooInterface, CodeGlooLoopback: KindGlooInterface,
	CodeGlooTimeout: KindGlooInterface,
	CodeDeepEP:      KindDeepEPNVSHMEM,
	CodeDPTimeout:   KindDPHandshake, CodeDPConfig: KindDPHandshake, CodeDPGlooTimeout: KindDPHandshake,
	CodeDPBind: KindDPHandshake, CodeDPHostname: KindDPHandshake,
	CodeRayNoGPU: KindRayPlacement, CodeRayWaiting: KindRayPlacement,
	CodeCUDAGraph:   KindCUDAGraph,
	CodeUnknownFlag: KindVersionFlag, CodeDeprecated: KindVersionFlag,
	CodeWorldSize: KindOther, CodeUnsupportedArch: KindVersionFlag, CodeTransformersType: KindVersionFlag,
	CodeOther: KindOther, CodeEngineDiedSilent: KindOther, CodeErrorLine: KindOther,
	CodeWorkerDied: KindOther, CodeIterTimeout: KindOther, CodeDeepGEMM: KindOther,
	CodeAscendDevice: KindOther, CodeMLAKVReshape: KindOther,
	CodeNixlEngineID: KindKVTransfer, CodeKVLeaseExpired: KindKVTransfer, CodeNixlSideChannel: KindKVTransfer,
	CodeNixlMissing: KindKVTransfer, CodeUCXTransports: KindKVTransfer, CodeUCXGID: KindKVTransfer,
	CodeNixlTPRatio: KindKVTransfer, CodeNixlBackend: KindKVTransfer, CodeNixlHandshake: KindKVTransfer,
	CodeHMAOffUnify: KindKVTransfer, CodeMooncakeTransfer: KindKVTransfer,
}

// Def is what the report needs of a code: its kind, default severity and fix.
type Def struct {
	Code                diag.Code
	Kind, Severity, Fix string
}

// defOf reads a code's entry from the catalog.
func defOf(code diag.Code) Def {
	d := Def{Code: code, Kind: kindOf[code], Severity: codes.Severity(code).String()}
	if e, ok := codes.Lookup(string(code)); ok {
		d.Fix = fixParagraph(e.Body())
	}
	if d.Kind == "" {
		d.Kind = KindOther
	}
	return d
}

// fixParagraph is the text after "**Fix:**" on a code's page.
func fixParagraph(body string) string {
	_, fix, ok := strings.Cut(body, "**Fix:**")
	if !ok {
		return ""
	}
	fix, _, _ = strings.Cut(strings.TrimSpace(fix), "\n\n")
	return strings.Join(strings.Fields(fix), " ")
}
