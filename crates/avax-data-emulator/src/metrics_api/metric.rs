//! The 17 metrics of `/v2/chains/{chainId}/metrics/{metric}`: their names and kinds (`series.rs`
//! computes them, `past.rs` draws their history before the blocks).

/// One of the 17 metrics of `/v2/chains/{chainId}/metrics/{metric}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    ActiveAddresses,
    ActiveSenders,
    CumulativeTxCount,
    CumulativeAddresses,
    CumulativeContracts,
    CumulativeDeployers,
    Contracts,
    Deployers,
    GasUsed,
    TxCount,
    AvgGps,
    MaxGps,
    AvgTps,
    MaxTps,
    AvgGasPrice,
    MaxGasPrice,
    FeesPaid,
}

impl Metric {
    pub const ALL: [Metric; 17] = [
        Metric::ActiveAddresses,
        Metric::ActiveSenders,
        Metric::CumulativeTxCount,
        Metric::CumulativeAddresses,
        Metric::CumulativeContracts,
        Metric::CumulativeDeployers,
        Metric::Contracts,
        Metric::Deployers,
        Metric::GasUsed,
        Metric::TxCount,
        Metric::AvgGps,
        Metric::MaxGps,
        Metric::AvgTps,
        Metric::MaxTps,
        Metric::AvgGasPrice,
        Metric::MaxGasPrice,
        Metric::FeesPaid,
    ];

    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::ActiveAddresses => "activeAddresses",
            Metric::ActiveSenders => "activeSenders",
            Metric::CumulativeTxCount => "cumulativeTxCount",
            Metric::CumulativeAddresses => "cumulativeAddresses",
            Metric::CumulativeContracts => "cumulativeContracts",
            Metric::CumulativeDeployers => "cumulativeDeployers",
            Metric::Contracts => "contracts",
            Metric::Deployers => "deployers",
            Metric::GasUsed => "gasUsed",
            Metric::TxCount => "txCount",
            Metric::AvgGps => "avgGps",
            Metric::MaxGps => "maxGps",
            Metric::AvgTps => "avgTps",
            Metric::MaxTps => "maxTps",
            Metric::AvgGasPrice => "avgGasPrice",
            Metric::MaxGasPrice => "maxGasPrice",
            Metric::FeesPaid => "feesPaid",
        }
    }

    pub fn parse(text: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.as_str() == text)
    }

    /// Whether the metric is a running total from the chain's launch.
    pub fn cumulative(self) -> bool {
        matches!(
            self,
            Metric::CumulativeTxCount
                | Metric::CumulativeAddresses
                | Metric::CumulativeContracts
                | Metric::CumulativeDeployers
        )
    }

    /// Whether only `timeInterval=day` is supported (all but activeAddresses, activeSenders,
    /// gasUsed and txCount).
    pub fn day_only(self) -> bool {
        !matches!(self, Metric::ActiveAddresses | Metric::ActiveSenders | Metric::GasUsed | Metric::TxCount)
    }
}
