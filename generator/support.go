package generator

import "github.com/vlaunch/vlaunch/diag/codes"

// CodeUnsupported marks a spec setting the chosen vLLM release cannot express.
const CodeUnsupported = codes.GenUnsupported
