// Command vlaunch validates, checks, generates and lints multi-node vLLM
// deployments. See README.md.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
