package data

import (
	"bytes"

	"github.com/rocops/rocops/internal/dataset"
)

// WDBCCredit is the attribution the WDBC data's licence (CC BY 4.0) requires wherever the
// data or results computed from it are shown.
const WDBCCredit = dataset.WDBCCredit

// WDBC returns the embedded Breast Cancer Wisconsin (Diagnostic) data: 569 rows, 30
// features, label "malignant" (1 = malignant, 212 rows). Each call parses a fresh copy. See
// [WDBCCredit] for its attribution.
func WDBC() (*Dataset, error) {
	return ReadCSV(bytes.NewReader(dataset.WDBC), CSVConfig{Label: dataset.WDBCLabel})
}
