// Package calibrate calibrates vlaunch's performance model to one cluster:
// it predicts each benchmark result (package bench) for the user's
// deployment (package resolve) with the estimator's step-time model and
// simulator, fits the efficiency constants with package fitter,
// and returns the report and the calibration file.
//
// Each result is replayed as it ran: the same request shape (the mean
// tokens sent and received), the same arrival pattern (a closed loop of the
// client's sessions, a burst, Poisson or gamma arrivals, or either held
// by the client's --max-concurrency, whose queue the client does not time:
// sim.Config.ClientCap) and the same number of
// requests (capped for speed, see maxSimRequests), from an idle server:
// the finite run the client ran, as check simulates a spec's
// workload.burst_requests (slo.FiniteRun) — open loops too, whose
// arrivals stop after the run's prompts and whose throughput counts the
// drain, as the clients' total output tokens ÷ duration does.
// The fitted values are the output throughput, the TPOT and the TTFT
// (median where the client recorded it, else the mean).
//
// A prefill/decode disaggregated deployment (resolve.Deployment.PD) is
// replayed through check's P/D model instead, pd.Evaluate on both pools
// (pd.EvaluateCapped for arrivals held by the client's --max-concurrency),
// and fitted the same way (pd.go: the loads it replays, what binds each
// figure, pools on different GPUs refused, the bound on a fit's
// evaluations).
//
// The fit is guarded (guard.go, direction.go, siblings.go): a constant
// moves only the way the fitted runs' errors ask for together (the sign of
// the derivative of their squared log errors, not when runs pull both ways
// in near balance), a figure pulls only the constants whose mechanism it
// exercises (TTFT not the decode-only ones, TPOT not the prompt's), and a
// fit is not accepted that leaves a fitted run worse than it started
// (beyond the fit's tolerance), or a run left out of the fit (leave one run
// out), or a figure of a published run of the user's own cluster the fit
// was not given; the constant most to blame is then left at its start and
// the fit runs again. The report says why each constant moved or did not.
//
// A fit is then checked on what it was not given (generalise.go): the
// published runs of vLLM on the same GPU (package published, replayed by
// estimate/replay as the global calibration replays them) are predicted
// with the global constants and with the fitted ones, and the report warns
// when the fitted ones predict them worse.
package calibrate
