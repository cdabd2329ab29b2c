// Package testbatch makes the batches the module's tests run on: random draws (Shifted and
// Spread for binary scores and labels, Uniform and Normal for input rows), each from
// rand.NewPCG(seed, stream) in a fixed order, so that a seed and a stream name one batch;
// and batches read from fuzz bytes and written back (Decode, Encode, Classes), with Valid,
// for the fuzz tests of the loss ops, the metrics and the diagnostics.
package testbatch
