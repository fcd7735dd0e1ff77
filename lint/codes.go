package lint

// Codes of the front-end findings (the rules' codes live with the rules).
const (
	// CodeSyntax is a shell or YAML syntax error.
	CodeSyntax = "VL001"
)
