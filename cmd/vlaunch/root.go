package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/diag"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0 // nothing at or above the failure threshold
	exitFindings = 1 // findings at error level (or --fail-on), or infeasible
	exitUsage    = 2 // unusable input: bad flags, unreadable or unparsable files
)

// exitError carries an exit code out of a RunE without printing anything.
type exitError struct {
	code int
	msg  string
}

// Error returns the message printed before exiting (may be empty).
func (e *exitError) Error() string { return e.msg }

// usageErr reports unusable input (exit 2).
func usageErr(format string, args ...interface{}) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// findingsErr signals exit 1 after the report was printed.
func findingsErr() error { return &exitError{code: exitFindings} }

// streams are the command's I/O; only main passes the real ones.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// subcommands lists every constructor; each lives in its own file.
var subcommands = []func(*streams) *cobra.Command{}

func newRoot(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "vlaunch",
		Short:         "Plan, check, generate and lint multi-node vLLM deployments",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionString(),
	}
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.SetIn(s.in)
	root.PersistentPreRun = func(c *cobra.Command, _ []string) { warnDeprecated(c, s.err) }
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErr("%v\nRun '%s --help' for usage.", err, c.CommandPath())
	})
	for _, mk := range subcommands {
		root.AddCommand(mk(s))
	}
	registerCompletions(root)
	return root
}

// run executes one command line. Both output streams escape control
// characters (diag.TerminalWriter): reports quote users' files, values and
// host command output, which must not reach the terminal as escape
// sequences; the escapes are valid in JSON strings, so JSON stays JSON.
func run(args []string, in io.Reader, out, errw io.Writer) int {
	tout, terr := diag.NewTerminalWriter(out), diag.NewTerminalWriter(errw)
	code := execute(args, &streams{in: in, out: tout, err: terr})
	_ = tout.Flush()
	_ = terr.Flush()
	return code
}

func execute(args []string, s *streams) int {
	root := newRoot(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(s.err, "vlaunch: "+ee.msg)
		}
		return ee.code
	}
	// Cobra's own argument errors (unknown command, wrong arg count) are usage errors.
	fmt.Fprintln(s.err, "vlaunch: "+err.Error())
	return exitUsage
}
