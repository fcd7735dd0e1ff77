package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/vlaunch/vlaunch/internal/golden"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"vlaunch": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the end-to-end tests in testdata/script/*.txtar against the
// real binary. The examples directory is available as $EXAMPLES,
// the generated docs as $DOCS.
func TestScript(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       golden.Update(), // -update rewrites cmp files inside the scripts
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", wd+"/../../examples")
			env.Setenv("DOCS", wd+"/../../docs")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
