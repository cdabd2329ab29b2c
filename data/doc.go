// Package data holds labelled tabular data for binary, multi-class and multi-label
// classifiers: a dense [Dataset], CSV loading that reports the line and column of every bad
// value, Parquet loading ([LoadParquet]; [Load] picks by extension), the embedded WDBC data as
// a default ([WDBC]), a seeded stratified train/validation/test [Split], and a [Standardizer]
// fitted on the training part only. [SplitStandardizedInPlace] prepares the three parts as
// views of the loaded matrix, without a copy.
//
// Labels are 0 and 1, 1 being the positive class. A multi-class Dataset (Classes set) holds
// each row's class index 0…k−1 in Y; a multi-label one (Labels set) a Rows×k 0/1 indicator.
// ReadCSV makes a label column of more than two distinct values, numbers or text, multi-class
// (see [ReadCSV]), and the 0/1 columns CSVConfig.Labels names multi-label. [Dataset.Strata]
// groups the rows by their labels (a binary row's label, a row's class, a multi-label row's set
// of labels) for every stratified draw: Split deals every stratum to every part. Features are float64 (X), or
// float32 (X32) for a float32 model when CSVConfig.Float32 asks (CSV and Parquet input alike),
// and must be finite: by default the package reports missing values and text in a feature
// column as errors.
//
// Tables as users bring them are read raw with CSVConfig.Text and Missing: text
// (categorical) columns as levels (Dataset.Levels), missing values as NaN, and a two-valued
// text label with its positive class named (CSVConfig.Positive, such as "Yes"). An [Encoder]
// fitted on the training part ([FitEncoder]) encodes them into numbers: the training median and
// a "was missing" feature for missing values, one-hot features of the levels seen in training,
// rare and new levels sharing one "(other)" feature. A validation or test file of the same
// table is read with CSVConfig.Like, which checks its columns and label values against the
// training data's. The label column is CSVConfig.Label, else the one column named label, y,
// class or target, else the last. Loading
// streams the input, so memory stays proportional to the numbers kept (8 bytes per value, 4
// for float32 features, plus slack), never to the text read; a field, a row and the number of
// columns have documented limits (64 KiB, 16 MiB and 65,536 by default, set in [CSVConfig])
// beyond which reading stops with [ErrTooLong], so no input can exhaust memory.
//
// Functions validate their input and return errors wrapping the exported Err values, to be
// tested with errors.Is; input errors of a CSV are [*CSVError] values carrying the line and
// column.
package data
