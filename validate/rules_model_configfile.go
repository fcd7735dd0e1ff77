package validate

import (
	"errors"
	"path/filepath"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
)

// configFileError reports an error inside the model's config.json (or the
// hf_quant_config.json beside it) where it is in that file:
// config.json:LINE:COL (a JSON syntax error at its byte, a wrong type or a
// missing or implausible field at its key, or at the object lacking it),
// with a note at the spec line naming the file. It returns false, having
// reported nothing, for any other error.
func configFileError(c *checker, err error) bool {
	var ce *catalog.ConfigError
	if c.d.Model.Name != "" || !errors.As(err, &ce) {
		return false
	}
	if !c.ok(p("model", "config")) {
		return true
	}
	file := resolve.ConfigPath(c.d)
	if ce.File == catalog.HFQuantConfigFile {
		file = filepath.Join(filepath.Dir(file), catalog.HFQuantConfigFile)
	}
	c.ds = append(c.ds, diag.Diagnostic{Code: CodeModel, Severity: diag.Error, File: file, Line: ce.Line, Col: ce.Col,
		Path: ce.Key, Message: ce.Error()})
	c.add(diag.Info, CodeModel, p("model", "config"), "", "model.config names %s, which has the error reported there", file)
	return true
}

// quantIgnoredWarning warns when the checkpoint states its quantization
// twice (config.json and hf_quant_config.json, or a wrapper's text_config):
// which one vlaunch uses, as vLLM does, and which it ignores.
func quantIgnoredWarning(c *checker, m *catalog.Model) {
	if m.Quant.Ignored == "" {
		return
	}
	c.warnf(CodeModel, p("model", "config"), "vLLM loads the checkpoint with the settings vlaunch uses; if the others describe the weights, the checkpoint is inconsistent: fix or remove them",
		"%s", m.Quant.Ignored)
}
