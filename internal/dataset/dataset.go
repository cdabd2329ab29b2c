// Package dataset embeds the module's default dataset so that programs and tests run without
// any file on disk.
//
// WDBC is the Breast Cancer Wisconsin (Diagnostic) data set: W. H. Wolberg, W. N. Street and
// O. L. Mangasarian (1995), UCI Machine Learning Repository, DOI 10.24432/C5DW2B, licensed CC
// BY 4.0. See README.md in this folder.
package dataset

import _ "embed"

// WDBC is the CSV text of the WDBC data: a header row, 30 numeric feature columns and the
// 0/1 label column "malignant" last (1 = malignant), 569 data rows. It must not be modified.
//
//go:embed wdbc.csv
var WDBC []byte

// WDBCLabel is the name of the label column of WDBC.
const WDBCLabel = "malignant"

// WDBCCredit is the attribution the licence requires wherever the data is shown or shipped.
const WDBCCredit = "Breast Cancer Wisconsin (Diagnostic), W. H. Wolberg, W. N. Street, " +
	"O. L. Mangasarian (1995), UCI Machine Learning Repository, DOI 10.24432/C5DW2B, CC BY 4.0"
