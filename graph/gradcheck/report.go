package gradcheck

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"gorgonia.org/tensor"
)

// worstShown is how many elements per node and machine Assert lists when it fails.
const worstShown = 5

// String returns a table with one row per node and machine: the errors and the worst element.
func (r *Report) String() string {
	var b strings.Builder
	machines := make([]string, len(r.Machines))
	for i, m := range r.Machines {
		machines[i] = string(m)
	}
	fmt.Fprintf(&b, "gradcheck: cost %.6g (%v), step %.3g, tol %.3g, machines: %s\n",
		r.Cost, r.Dtype, r.Step, r.Tol, strings.Join(machines, ", "))
	if r.LispSkipped != "" {
		fmt.Fprintf(&b, "lisp skipped: %s\n", r.LispSkipped)
	}
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "node\tshape\tmachine\tmax abs err\tmax rel err\tworst\tnumeric\tmachine grad\t")
	r.each(func(n NodeReport, m Machine, c Comparison) {
		fmt.Fprintf(w, "%s\t%v\t%s\t%.3g\t%.3g\t%s\t%.8g\t%.8g\t\n", n.Name, n.Shape, m, c.MaxAbs, c.MaxRel,
			index(n.Shape, c.Worst), n.Numeric[c.Worst], c.Grad[c.Worst])
	})
	w.Flush()
	return b.String()
}

// each calls f for every node and every machine checked on it.
func (r *Report) each(f func(NodeReport, Machine, Comparison)) {
	for _, n := range r.Nodes {
		f(n, Tape, n.Tape)
		if n.Lisp.Grad != nil {
			f(n, Lisp, n.Lisp)
		}
	}
}

// worstElements returns a table of the k elements with the largest absolute errors for each
// node and machine whose relative error exceeds r.Tol.
func (r *Report) worstElements(k int) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "worst elements:")
	fmt.Fprintln(w, "node\tmachine\telement\tnumeric\tmachine grad\tabs err\trel err\t")
	r.each(func(n NodeReport, m Machine, c Comparison) {
		if c.MaxRel <= r.Tol {
			return
		}
		scale := tiny
		for i := range n.Numeric {
			scale = math.Max(scale, math.Max(math.Abs(n.Numeric[i]), math.Abs(c.Grad[i])))
		}
		order := make([]int, len(n.Numeric))
		for i := range order {
			order[i] = i
		}
		absErr := func(i int) float64 {
			e := math.Abs(c.Grad[i] - n.Numeric[i])
			if math.IsNaN(e) {
				return math.Inf(1)
			}
			return e
		}
		sort.SliceStable(order, func(a, b int) bool { return absErr(order[a]) > absErr(order[b]) })
		for _, i := range order[:min(k, len(order))] {
			fmt.Fprintf(w, "%s\t%s\t%s\t%.8g\t%.8g\t%.3g\t%.3g\t\n", n.Name, m, index(n.Shape, i),
				n.Numeric[i], c.Grad[i], absErr(i), absErr(i)/scale)
		}
	})
	w.Flush()
	return b.String()
}

// index formats the row-major index i of an element of a value of shape s, with its
// coordinates when s has two or more dimensions: "7", or "7 (1,3)".
func index(s tensor.Shape, i int) string {
	if len(s) < 2 {
		return fmt.Sprint(i)
	}
	coords := make([]string, len(s))
	rest := i
	for d := len(s) - 1; d >= 0; d-- {
		coords[d] = fmt.Sprint(rest % s[d])
		rest /= s[d]
	}
	return fmt.Sprintf("%d (%s)", i, strings.Join(coords, ","))
}
