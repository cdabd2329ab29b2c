package graph

import (
	"errors"
	"fmt"

	pkgerrors "github.com/pkg/errors"
	"gorgonia.org/gorgonia"
)

// ErrMachineReused reports a LispMachine run again (after Reset) on a graph holding one of the
// module's loss nodes. Such a machine recomputes only the graph's last node: the loss's DoDiff
// would add its gradient a second time, computed from values the machine did not recompute.
// Build a new LispMachine for every run, or use a TapeMachine, which can be reused with Reset.
// A reused machine whose last node is not the loss does not run the loss at all and cannot be
// detected: its gradients are silently those of the first run. The ops' errors read
// "<package>: LispMachine reused: …".
var ErrMachineReused = errors.New("LispMachine reused")

// RunError is an error a machine met while running a graph, reduced to its cause: the error
// the failing op returned (such as rocops.ErrNoPositives), without the layers of
// context Gorgonia's machines wrap around it. errors.Is and errors.As reach the cause.
type RunError struct {
	Node string // the node whose op failed, "" when the machine did not say
	Err  error  // the op's own error
}

func (e *RunError) Error() string {
	if e.Node == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("running %s: %v", e.Node, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// RunAll runs vm once and returns its error as a *RunError, so that callers can test it with
// errors.Is against the ops' exported errors. (Gorgonia wraps an op's error in a type
// without Unwrap, which hides it from errors.Is.)
func RunAll(vm gorgonia.VM) error {
	return Cause(vm.RunAll())
}

// Cause returns err, an error from a Gorgonia machine, as a *RunError holding the error the
// failing op returned, or nil for nil. An error without machine context is returned as is.
func Cause(err error) error {
	if err == nil {
		return nil
	}
	inner, name := err, ""
	var ctx interface {
		Err() error
		Node() *gorgonia.Node
	}
	if errors.As(err, &ctx) { // the TapeMachine's context, which hides what it wraps
		inner = ctx.Err()
		if n := ctx.Node(); n != nil {
			name = n.Name()
		}
	}
	// The machines' messages are github.com/pkg/errors layers, which Cause peels off; it
	// stops at the op's own error, which does not implement Cause.
	cause := pkgerrors.Cause(inner)
	if cause == err {
		return err
	}
	return &RunError{Node: name, Err: cause}
}
