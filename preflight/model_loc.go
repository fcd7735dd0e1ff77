package preflight

import (
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// modelLoc is where this host's weights are, as vLLM would resolve model.path.
type modelLoc struct {
	// Dir is an absolute host path ("" when the weights are not local).
	Dir string
	// Repo is the Hugging Face repo id when the spec names one.
	Repo string
	// FromCache is true when Dir is a snapshot in the Hugging Face cache.
	FromCache bool
}

// repoIDRE matches "owner/name" Hugging Face repo ids.
var repoIDRE = regexp.MustCompile(`^[A-Za-z0-9][\w.-]*/[\w.-]+$`)

// modelLocation resolves model.path the way vLLM does: an existing local
// directory wins; otherwise "owner/name" is a Hugging Face repo id, which
// may already sit in the local cache. No model.path means the catalog repo.
func (e *env) modelLocation() modelLoc {
	p := e.d.Model.Path
	if p == "" {
		if m := e.r.Model; m.HFRepo != "" {
			return e.cachedRepo(m.HFRepo)
		}
		return modelLoc{}
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(e.opts.WorkDir, p)
	}
	if e.exists(abs) || !repoIDRE.MatchString(p) {
		return modelLoc{Dir: abs}
	}
	return e.cachedRepo(p)
}

// cachedRepo looks for the repo's snapshot in the Hugging Face cache
// (<cache>/models--owner--name/snapshots/<rev>, rev from refs/main).
func (e *env) cachedRepo(repo string) modelLoc {
	loc := modelLoc{Repo: repo}
	if e.opts.HFCacheDir == "" {
		return loc
	}
	base := path.Join(filepath.ToSlash(e.opts.HFCacheDir), "models--"+strings.ReplaceAll(repo, "/", "--"))
	rev, err := e.readTrim(path.Join(base, "refs/main"))
	if err != nil || rev == "" {
		rev = latestSnapshot(e.host.FS, path.Join(base, "snapshots"))
	}
	if rev != "" && e.exists(path.Join(base, "snapshots", rev)) {
		loc.Dir, loc.FromCache = path.Join(base, "snapshots", rev), true
	}
	return loc
}

func latestSnapshot(fsys fs.FS, dir string) string {
	ents, err := fs.ReadDir(fsys, fsPath(dir))
	if err != nil || len(ents) == 0 {
		return ""
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	sort.Strings(names)
	return names[len(names)-1]
}

// checkpointModel is the spec's model as the checkpoint on disk should
// store it: weights that are not what the checkpoint ships (resolve's
// WeightsFromCheckpoint) mean an unquantized copy — BF16/FP16 served as is,
// or quantized to FP8 online by vLLM.
func (e *env) checkpointModel() *catalog.Model {
	m, eng := e.r.Model, e.r.Engine
	if eng.WeightsFromCheckpoint {
		return m
	}
	c := *m
	c.Quant = catalog.Quantization{}
	if eng.WeightsDType.Value == "fp16" {
		c.TorchDType = "float16"
	}
	return &c
}

// describe names the location for reports.
func (l modelLoc) describe() string {
	switch {
	case l.FromCache:
		return l.Repo + " in the Hugging Face cache (" + l.Dir + ")"
	case l.Dir != "":
		return l.Dir
	case l.Repo != "":
		return "Hugging Face repo " + l.Repo + " (not downloaded)"
	}
	return "no model.path"
}
