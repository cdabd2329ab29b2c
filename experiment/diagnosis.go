package experiment

import (
	"encoding/json"
	"math"

	"github.com/rocops/rocops/train"
)

// Diagnosis is one entry of a result's "diagnostics" in roctrain's JSON output: the
// corrective-power diagnostics after one epoch of the kept candidate's training
// (train.Diagnosis; docs/diagnostics.md). Values that are not defined, such as the drift when
// the selection batch has no severe pair, are null.
type Diagnosis struct {
	Epoch           int       `json:"epoch"`
	Phase           string    `json:"phase"`
	Misranking      jsonFloat `json:"misranking"`
	SevereMass      jsonFloat `json:"severe_mass"`
	CEBound         jsonFloat `json:"ce_bound"`
	Drift           jsonFloat `json:"drift"`
	VarPos          jsonFloat `json:"var_pos"`
	VarNeg          jsonFloat `json:"var_neg"`
	VarResidual     jsonFloat `json:"var_residual"`
	FirstOrderShare jsonFloat `json:"first_order_share"`
	SeverePairs     int       `json:"severe_pairs"`
}

// jsonFloat is a float64 written as null when it is NaN or infinite, which JSON cannot hold.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// diagnosesOf converts a History's diagnoses for the JSON output; nil without diagnoses.
func diagnosesOf(h *train.History) []Diagnosis {
	if h == nil || len(h.Diagnoses) == 0 {
		return nil
	}
	out := make([]Diagnosis, len(h.Diagnoses))
	for k, d := range h.Diagnoses {
		out[k] = Diagnosis{
			Epoch: d.Epoch, Phase: d.Stage.String(),
			Misranking: jsonFloat(
				d.Misranking,
			), SevereMass: jsonFloat(d.SevereMass), CEBound: jsonFloat(d.CEBound),
			Drift: jsonFloat(d.Drift), VarPos: jsonFloat(d.VarPos), VarNeg: jsonFloat(d.VarNeg),
			VarResidual: jsonFloat(d.VarResidual), FirstOrderShare: jsonFloat(d.FirstOrderShare),
			SeverePairs: d.SeverePairs,
		}
	}
	return out
}
