package experiment_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rocops/rocops/experiment"
)

// Progress numbers every training, skipped ones included, and estimates the time left only
// once a training has finished.
func TestProgressLines(t *testing.T) {
	var buf bytes.Buffer
	p := &experiment.Progress{W: &buf, Total: 4}
	p.Start("a")
	p.Finish()
	p.Skip()
	p.Start("c")
	p.Finish()
	p.Start("d")
	want := regexp.MustCompile(`^\[1/4\] a\n\[3/4\] c, about \d+s left\n\[4/4\] d, about \d+s left\n$`)
	assert.True(t, want.MatchString(buf.String()), "got\n%s", buf.String())
	quiet := &experiment.Progress{Total: 1}
	quiet.Start("nothing to say") // a nil W prints nothing and does not fail
}
