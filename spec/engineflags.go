package spec

import (
	"reflect"
	"strings"
	"sync"
)

// FieldFlag is a typed spec field that `vlaunch generate` writes as a
// `vllm serve` flag, and that check and plan model.
type FieldFlag struct {
	// Path is the field's dotted YAML path ("vllm.max_num_seqs").
	Path string
	// Flags are the long flag names (without dashes) the field is
	// written as, in any release ("quantization", "dtype" for
	// model.weights).
	Flags []string
	// Switch: the field is a boolean, written as a switch.
	Switch bool
}

// TypedFlags lists the typed fields that set a vLLM flag, read from the
// `flag:"…"` struct tags of Deployment's model, workload, parallelism and
// vllm sections: the one table of which flags vlaunch owns. A field's tag
// sits on the field itself, so a new typed field declares its flag where
// it is defined.
func TypedFlags() []FieldFlag {
	typedOnce.Do(func() { typedFlags = collectFlags(reflect.TypeOf(Deployment{}), "") })
	return typedFlags
}

var (
	typedOnce  sync.Once
	typedFlags []FieldFlag
)

// FlagField returns the typed field that writes flag (a canonical long
// name without dashes, as vllm.Release.Flag returns it).
func FlagField(flag string) (FieldFlag, bool) {
	for _, f := range TypedFlags() {
		for _, n := range f.Flags {
			if n == flag {
				return f, true
			}
		}
	}
	return FieldFlag{}, false
}

// collectFlags walks t's exported fields (structs and pointers to structs
// too) and returns those with a flag tag, at their YAML paths under prefix.
func collectFlags(t reflect.Type, prefix string) []FieldFlag {
	var out []FieldFlag
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		path := prefix + name
		if tag := sf.Tag.Get("flag"); tag != "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			out = append(out, FieldFlag{Path: path, Flags: strings.Split(tag, ","), Switch: ft.Kind() == reflect.Bool})
			continue
		}
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft.PkgPath() == t.PkgPath() {
			out = append(out, collectFlags(ft, path+".")...)
		}
	}
	return out
}
