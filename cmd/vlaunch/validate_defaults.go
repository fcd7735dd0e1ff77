package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/resolve"
	"gopkg.in/yaml.v3"
)

// printDefaults writes the spec with vlaunch's defaults applied, followed by
// the defaults vLLM itself picks for the requested version (as comments,
// because they are vLLM's, not the spec's).
func printDefaults(w io.Writer, r *resolve.Deployment) error {
	d := r.Spec
	fmt.Fprintf(w, "# %s with defaults applied\n", d.File)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(d); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	printVersionDefaults(w, r)
	return nil
}

// printVersionDefaults lists the effective value of every engine setting
// the spec leaves out, as resolve decided it (resolve.Deployment.Settings):
// the values check simulates and generate writes, so that no third place
// works defaults out (#27). The release is the newest vlaunch knows when
// vllm.version is not set.
func printVersionDefaults(w io.Writer, res *resolve.Deployment) {
	if res.Version.Value == "" {
		fmt.Fprintln(w, "# vLLM's own defaults: resolved at check/generate time once vllm.version is valid")
		return
	}
	if res.PD != nil {
		// Each pool resolves its own engine settings (its layout, its
		// overrides): list them pool by pool.
		for _, role := range res.PD.Roles {
			fmt.Fprintf(w, "# %s pool:\n", role.Name)
			printVersionDefaults(w, role.Deployment)
		}
		return
	}
	fmt.Fprintf(w, "# vLLM %s: effective values of the settings the spec leaves out (what check simulates and generate starts):\n", res.Release)
	var pending []string
	for _, s := range res.Settings() {
		switch {
		case s.From == resolve.SourceSpec:
		case res.Layout.Auto && layoutDependent[s.Name]:
			pending = append(pending, s.Name)
		default:
			fmt.Fprintf(w, "#   %s: %s  (%s)\n", s.Name, settingValue(s.Value), settingWhy(s))
		}
	}
	if len(pending) > 0 {
		fmt.Fprintf(w, "#   %s: follow the layout `parallelism: auto` picks (see check)\n", strings.Join(pending, ", "))
	}
}

// layoutDependent are the settings resolve derives again for each layout.
var layoutDependent = map[string]bool{"all2all_backend": true, "cuda_graphs": true, "api_server_count": true}

// settingValue prints "none" for an empty value (no all-to-all backend).
func settingValue(v any) string {
	if v == "" {
		return "none"
	}
	return fmt.Sprint(v)
}

func settingWhy(s resolve.NamedSetting) string {
	if s.Why != "" {
		return s.Why
	}
	return string(s.From)
}
