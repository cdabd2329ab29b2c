# The PyTorch side of rocops' train BenchmarkEpoch (docs/benchmarks.md, "End to end: one
# epoch against PyTorch"): one epoch of cross-entropy training of an MLP 30->64->1 (ReLU),
# BCE-with-logits mean, Adam lr 1e-3, 2 threads by default, over rows x 30 features drawn
# as rocops' big.csv generator draws them (label 1 with probability 0.1, standard normal
# features, the first five shifted by +1 for positives), held in memory: no file is read, so
# the figure is the training loop's alone. Prints rows per second of wall time, and the
# process's processor time, of every epoch.
#
#   ce_epoch.py [rows] [reps] [dtypes] [batches] [loaders] [threads]
#
# dtypes, batches and loaders are comma-separated lists; by default float32, 128,1024 and
# dataloader,index, and 2 threads. The loaders:
#   dataloader  torch.utils.data.DataLoader(TensorDataset(x, y), batch_size, shuffle=True):
#               the loop of PyTorch's tutorials (one __getitem__ per row, then collate);
#   index       a fresh torch.randperm each epoch, each batch x[perm[i:i+batch]]: the
#               fastest plain-PyTorch loop over in-memory tensors.
# Each epoch starts from the same initial weights and a fresh Adam, as every Fit of
# BenchmarkEpoch does; one epoch of 50 steps warms up first.
import sys, time, statistics
import torch
from torch.utils.data import DataLoader, TensorDataset

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1
dtypes = [getattr(torch, d) for d in (sys.argv[3] if len(sys.argv) > 3 else "float32").split(",")]
batches = [int(b) for b in (sys.argv[4] if len(sys.argv) > 4 else "128,1024").split(",")]
loaders = (sys.argv[5] if len(sys.argv) > 5 else "dataloader,index").split(",")
threads = int(sys.argv[6]) if len(sys.argv) > 6 else 2
torch.set_num_threads(threads)

torch.manual_seed(1)
y64 = (torch.rand(rows, dtype=torch.float64) < 0.1).to(torch.float64)
x64 = torch.randn(rows, 30, dtype=torch.float64)
x64[:, :5] += y64[:, None]


def batches_of(loader, x, y, batch):
    if loader == "dataloader":
        return DataLoader(TensorDataset(x, y), batch_size=batch, shuffle=True)
    if loader == "index":
        def gen():
            perm = torch.randperm(rows)
            for i in range(0, rows, batch):
                idx = perm[i:i + batch]
                yield x[idx], y[idx]
        return gen()
    raise SystemExit(f"unknown loader {loader!r}")


for batch in batches:
    for dt in dtypes:
        x, y = x64.to(dt), y64.to(dt)
        torch.manual_seed(1)
        model = torch.nn.Sequential(torch.nn.Linear(30, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)).to(dt)
        init = {k: v.clone() for k, v in model.state_dict().items()}
        lossf = torch.nn.BCEWithLogitsLoss()
        for loader in loaders:
            def epoch(limit=None):
                model.load_state_dict(init)
                opt = torch.optim.Adam(model.parameters(), lr=1e-3)
                for s, (xb, yb) in enumerate(batches_of(loader, x, y, batch)):
                    if limit is not None and s >= limit:
                        break
                    opt.zero_grad()
                    loss = lossf(model(xb).squeeze(1), yb)
                    loss.backward()
                    opt.step()
            epoch(limit=50)
            walls, cpus = [], []
            for _ in range(reps):
                w0, c0 = time.perf_counter(), time.process_time()
                epoch()
                walls.append(time.perf_counter() - w0)
                cpus.append(time.process_time() - c0)
            name = str(dt).split('.')[-1]
            w, c = statistics.median(walls), statistics.median(cpus)
            print(f"torch {name} ce epoch rows={rows} batch={batch} loader={loader} threads={threads}: "
                  f"{rows / w:.0f} rows/s, wall {w:.3f} s, cpu {c:.3f} s "
                  f"(walls {[round(v, 3) for v in walls]})", flush=True)
