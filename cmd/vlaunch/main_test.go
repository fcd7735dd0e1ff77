package main

import (
	"fmt"
	"net"
	"os"
	"strconv"
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
		Cmds:                map[string]func(ts *testscript.TestScript, neg bool, args []string){"listen": cmdListen},
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", wd+"/../../examples")
			env.Setenv("DOCS", wd+"/../../docs")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}

// cmdListen is the scripts' `listen PORT`: the test process binds TCP
// PORT on all addresses until the script ends, so a command the script
// runs finds the port in use (preflight's port checks).
func cmdListen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: listen PORT")
	}
	port, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("listen: %v", err)
	}
	l, err := net.Listen("tcp", fmt.Sprintf(":%d", port))
	if err != nil {
		ts.Fatalf("listen %d: %v", port, err)
	}
	ts.Defer(func() { l.Close() })
}
