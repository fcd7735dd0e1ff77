package resolve

// FieldError is a value resolve cannot use, at the spec field path (or the
// quick-form flag) that holds it. validate reports most of these first, with
// positions; resolve still refuses them so no stage computes with them.
type FieldError struct {
	// Path is the field ("vllm.gpu_memory_utilization") or flag ("--gpu").
	Path string
	Msg  string
	Hint string
	// Unsupported: the value is fine but the vLLM release cannot express
	// it (Place: a layout whose flags the release lacks).
	Unsupported bool
}

// Error is the path and the message.
func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

func fieldErr(path, msg, hint string) *FieldError {
	return &FieldError{Path: path, Msg: msg, Hint: hint}
}
