package vllm

// lintCorpusFlags are flags that real launch scripts linted for vlaunch's
// corpus (issue #12) use and the tables above lacked; each is cited.
// Added by the lint engineer; the vllm-data engineer owns the main tables.
var lintCorpusFlags = []Flag{
	{Name: "ec-transfer-config", Kind: JSON, Span: Span{Since: v0111},
		Doc: "encoder-cache (EPD disaggregation) connector, the analogue of --kv-transfer-config",
		Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/engine/arg_utils.py") + "; " + "ECTransferConfig (vllm/config/ec_transfer.py, docs.vllm.ai/en/stable/api/vllm/config/ec_transfer); " +
			"the ec_transfer package is in the v0.11.2 API docs (docs.vllm.ai/en/v0.11.2/api/vllm/distributed/ec_transfer/ec_connector); " +
			"used by vllm-ascend examples/epd_disaggregated; the first release is unverified (0.11.1 recorded so it is never reported too new)"},
}

func init() { flagTable = append(flagTable, lintCorpusFlags...) }
