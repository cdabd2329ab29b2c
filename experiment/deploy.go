package experiment

import "github.com/rocops/rocops/deploy"

// OperatingPoint is what deploy.Save records of r: its deployed threshold (+Inf, which flags
// nothing, when no threshold kept validation FPR ≤ α), its validation and test rates, how it
// was trained, and label, the training data's label column.
func (r *Result) OperatingPoint(label string) deploy.OperatingPoint {
	return deploy.OperatingPoint{
		Alpha: r.Alpha, Threshold: r.threshold(), ValFPR: r.ValFPR, ValTPR: r.ValTPR,
		TestFPR: r.DeployedTestFPR, TestTPR: r.DeployedTestTPR, Label: label,
		Run: deploy.Run{Loss: r.Loss, WarmupEpochs: r.WarmupEpochs, Seed: r.Seed, LearningRate: r.LearningRate},
	}
}
