package calibrate

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/resolve"
)

// modelNames are the names the deployment's model goes by: the catalog id
// and repo, model.path and model.served_name.
func modelNames(dep *resolve.Deployment) []string {
	if dep.Model == nil {
		return nil
	}
	var path, served string
	if dep.Spec != nil {
		path, served = dep.Spec.Model.Path, dep.Spec.Model.ServedName
	}
	return dep.Model.Names(path, served)
}

// otherModel says why a result measured another model than the spec
// deploys (nil when it can be the same model, or either side names none).
// A benchmark of another model fits constants to the wrong shapes and
// reports a good fit all the same.
func otherModel(names []string, r *bench.Result) error {
	if catalog.MatchesAny(r.Model, names) {
		return nil
	}
	return fmt.Errorf("it measured model %q, the spec deploys %s; if that is this model under another name, set model.served_name to %q",
		r.Model, strings.Join(quoteAll(names), ", "), r.Model)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
