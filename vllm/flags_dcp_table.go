package vllm

// Decode-context-parallel flags read at upstream's release tags in the
// github.com/kzwrime/vllm snapshot (srcKzTags; its v0.19.0 tag is also the
// 2a69949bd the third fact audit read as srcFA019).
const (
	// srcDCPAlias: --decode-context-parallel-size and its -dcp alias.
	srcDCPAlias = "vllm/engine/arg_utils.py: no decode_context_parallel_size at v0.10.1.1 (1da94e673); " +
		`parallel_group.add_argument("--decode-context-parallel-size", "-dcp", ...) at v0.10.2 (01efc7ef7, L647) and at every tag read to v0.24.0 (ee0da84ab, L1002); ` + srcKzTags

	// srcDCPInterleave: --dcp-kv-cache-interleave-size.
	srcDCPInterleave = "vllm/engine/arg_utils.py: absent at v0.11.0 (b8b302cde); added at v0.11.1 (439368496, L770); present at every tag read to v0.24.0 (ee0da84ab, L1011), " +
		"where vllm/config/parallel.py says it \"has been replaced by cp_kv_cache_interleave_size, and will be deprecated\"; " + srcKzTags

	// srcCPInterleave: --cp-kv-cache-interleave-size.
	srcCPInterleave = "vllm/engine/arg_utils.py: absent at v0.11.2 (275de3417); added at v0.12.0 (4fd9d6a85, L763); present to v0.24.0 (ee0da84ab, L1015); " + srcKzTags

	// srcDCPCommBackend: --dcp-comm-backend and its choices. A Literal
	// without str becomes argparse choices (literal_to_kwargs, arg_utils.py
	// L174-187 at v0.18.0), so another value exits with "invalid choice".
	srcDCPCommBackend = "vllm/engine/arg_utils.py: absent at v0.17.1 (95c0f928c); added at v0.18.0 (bcf2be961, L833; PR #34883); " +
		`vllm/config/parallel.py DCPCommBackend = Literal["ag_rs", "a2a"] at v0.18.0 (L39) and unchanged at every minor tag to v0.24.0 (ee0da84ab, L38); ` + srcKzTags
)

// Literal flags whose choices were read at the tags (srcKzTags), checked
// where read: their entries from 0.25.0 carry no choices.
const (
	// srcMambaCacheModeTags: --mamba-cache-mode and MambaCacheMode.
	srcMambaCacheModeTags = "vllm/engine/arg_utils.py: absent at v0.14.1 (d7de043d5); cache_group.add_argument(\"--mamba-cache-mode\") at v0.15.0 (f17644344, L945) and to v0.24.0; " +
		`vllm/config/cache.py MambaCacheMode = Literal["all", "align", "none"] (default "none") at every minor tag v0.15.0-v0.24.0; ` + srcKzTags
	// srcMMEncoderTPModeTags: --mm-encoder-tp-mode and MMEncoderTPMode.
	srcMMEncoderTPModeTags = "vllm/engine/arg_utils.py: absent at v0.10.1.1 (1da94e673); parallel add_argument(\"--mm-encoder-tp-mode\") at v0.10.2 (01efc7ef7, L786) and to v0.24.0; " +
		`MMEncoderTPMode = Literal["weights", "data"] (default "weights") in vllm/config at v0.10.2, v0.11.0, v0.16.0 and v0.24.0; ` + srcKzTags
)

var (
	mambaCacheModes  = []string{"all", "align", "none"}
	mmEncoderTPModes = []string{"weights", "data"}
)

// literalFlags are flags with Literal choices read at the tags; a Literal
// without str becomes argparse choices (literal_to_kwargs), so another
// value exits with "invalid choice".
var literalFlags = []Flag{
	{Name: "mamba-cache-mode", Kind: String, Choices: mambaCacheModes, Default: "none", Span: Span{Since: v0150, Removed: v0250},
		Doc: "Mamba state caching for prefix caching", Verified: true, Source: srcMambaCacheModeTags + "; " + srcMambaCacheMode + "; " + srcFAIn016},
	{Name: "mamba-cache-mode", Kind: String, Default: "none", Span: Span{Since: v0250, Confirmed: v0280},
		Doc: "Mamba state caching for prefix caching (values after 0.24.0 not read, not checked)", Source: srcTag028 + "; 0.25.0-0.27.x not read (choices unverified there); " + srcMambaCacheModeTags + "; " + srcFAIn016},
	{Name: "mm-encoder-tp-mode", Kind: String, Choices: mmEncoderTPModes, Default: "weights", Span: Span{Since: v0102, Removed: v0250},
		Doc: "how the multimodal encoder uses TP", Verified: true, Source: srcMMEncoderTPModeTags + "; " + srcMMEncoderTPMode},
	{Name: "mm-encoder-tp-mode", Kind: String, Default: "weights", Span: Span{Since: v0250, Confirmed: v0280},
		Doc: "how the multimodal encoder uses TP (values after 0.24.0 not read, not checked)", Source: srcTag028 + "; 0.25.0-0.27.x not read (choices unverified there); " + srcMMEncoderTPModeTags + "; " + srcMMEncoderTPMode},
}

// dcpCommChoices are DCPCommBackend's values where they were read (0.18.0 to
// 0.24.0); later releases may add some, so the entry from 0.25.0 has none.
var dcpCommChoices = []string{"ag_rs", "a2a"}

// dcpFlags are the DCP flags beside --decode-context-parallel-size. Two of
// them share the prefix "dcp": from 0.18.0 `--dcp` is an ambiguous
// abbreviation, and vLLM exits.
var dcpFlags = []Flag{
	{Name: "dcp-kv-cache-interleave-size", Kind: Int, Default: "1", Span: Span{Since: v0111},
		Doc: "tokens stored per DCP rank before the next rank (block size must be a multiple); replaced by --cp-kv-cache-interleave-size", Verified: true, Source: srcDCPInterleave},
	{Name: "cp-kv-cache-interleave-size", Kind: Int, Default: "1", Span: Span{Since: v0120},
		Doc: "tokens stored per (D/P)CP rank before the next rank", Verified: true, Source: srcCPInterleave},
	{Name: "dcp-comm-backend", Kind: String, Choices: dcpCommChoices, Default: "ag_rs", Span: Span{Since: v0180, Removed: v0250},
		Doc: "communication backend of decode context parallel (a2a needs DCP > 1)", Verified: true, Source: srcDCPCommBackend},
	{Name: "dcp-comm-backend", Kind: String, Default: "ag_rs", Span: Span{Since: v0250, Confirmed: v0280},
		Doc: "communication backend of decode context parallel (values after 0.24.0 not read, not checked)", Source: srcTag028 + "; " + srcDCPCommBackend + "; 0.25.0-0.27.x not read (choices unverified there)"},
}

func init() { flagTable = append(append(flagTable, dcpFlags...), literalFlags...) }
