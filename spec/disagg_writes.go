package spec

import (
	"reflect"
	"strings"
)

// Writes reports whether the pool's vllm block sets the field at key, a
// dot-separated path under it as the spec spells it ("max_num_seqs",
// "env.VLLM_ALL2ALL_BACKEND", "speculative.mean_acceptance_length"): a
// pointer that is set (even to false or 0), a non-empty list, a map that
// holds the key. Fields are found by their yaml names, so a field added to
// PoolVLLM is known here without a change.
func (o PoolVLLM) Writes(key string) bool {
	return writes(reflect.ValueOf(o), strings.Split(key, "."))
}

// writes follows path from v: through pointers, struct fields by yaml name
// and map keys; at its end, whether the value there is set.
func writes(v reflect.Value, path []string) bool {
	if len(path) == 0 {
		switch v.Kind() {
		case reflect.Slice, reflect.Map:
			return v.Len() > 0
		}
		return !v.IsZero()
	}
	switch v.Kind() {
	case reflect.Pointer:
		return !v.IsNil() && writes(v.Elem(), path)
	case reflect.Map:
		x := v.MapIndex(reflect.ValueOf(path[0]))
		return x.IsValid() && (len(path) == 1 || writes(x, path[1:]))
	case reflect.Struct:
		f := fieldByYAMLName(v, path[0])
		return f.IsValid() && writes(f, path[1:])
	}
	return false
}

// fieldByYAMLName is v's field whose yaml tag names it (the zero Value
// when none does).
func fieldByYAMLName(v reflect.Value, name string) reflect.Value {
	t := v.Type()
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); tag == name {
			return v.Field(i)
		}
	}
	return reflect.Value{}
}
