//! Test-only: a minimal structural walk of P-chain and X-chain containers, written from
//! FORMATS.md independently of the writer, so the encoders' tests can check that every byte they
//! emit is consumed by the documented layout. Panics on anything malformed.

/// One tx found by the walk.
#[derive(Debug, Clone)]
pub struct TxSpan {
    /// Codec type ID of the unsigned tx.
    pub type_id: u32,
    /// Byte range of the signed tx (block form) in the walked buffer.
    pub start: usize,
    pub end: usize,
    /// `(nodeID, start, end, weight)` for txs with a Validator.
    pub validator: Option<([u8; 20], u64, u64, u64)>,
    /// Addresses of the (first) rewards owner of staking txs.
    pub reward_addresses: Vec<[u8; 20]>,
}

struct R<'a> {
    b: &'a [u8],
    p: usize,
}

impl<'a> R<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        assert!(self.p + n <= self.b.len(), "truncated at {} (+{n}) of {}", self.p, self.b.len());
        let s = &self.b[self.p..self.p + n];
        self.p += n;
        s
    }
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }
    fn u16(&mut self) -> u16 {
        u16::from_be_bytes(self.take(2).try_into().unwrap())
    }
    fn u32(&mut self) -> u32 {
        u32::from_be_bytes(self.take(4).try_into().unwrap())
    }
    fn u64(&mut self) -> u64 {
        u64::from_be_bytes(self.take(8).try_into().unwrap())
    }
    fn count(&mut self) -> usize {
        let n = self.u32() as usize;
        assert!(n < 10_000, "absurd count {n}");
        n
    }
    fn owners(&mut self) -> Vec<[u8; 20]> {
        self.u64();
        let threshold = self.u32();
        let n = self.count();
        assert!(threshold as usize <= n.max(1));
        let addrs: Vec<[u8; 20]> = (0..n).map(|_| self.take(20).try_into().unwrap()).collect();
        assert!(addrs.windows(2).all(|w| w[0] < w[1]), "addresses sorted and unique");
        addrs
    }
    /// The type ID of an output or input. A P-chain stakeable lock (type `lock`) is seen
    /// through: its locktime is skipped and the type ID it wraps, which must be `inner`, returned.
    fn type_id(&mut self, x: bool, lock: u32, inner: u32) -> u32 {
        match self.u32() {
            t if t == lock && !x => {
                self.u64();
                assert_eq!(self.u32(), inner, "a stakeable lock (type {lock}) wraps type {inner}");
                inner
            }
            t => t,
        }
    }
    fn output(&mut self, x: bool) {
        match self.type_id(x, 22, 7) {
            7 => {
                self.u64();
                self.owners();
            }
            6 if x => {
                self.owners();
            }
            t => panic!("output type {t}"),
        }
    }
    fn outputs(&mut self, x: bool) -> Vec<[u8; 20]> {
        let n = self.count();
        let mut last = Vec::new();
        for _ in 0..n {
            self.take(32);
            let at = self.p;
            self.output(x);
            let mut again = R { b: self.b, p: at };
            if again.u32() == 7 {
                again.u64();
                last = again.owners();
            }
        }
        last
    }
    fn sig_indices(&mut self) {
        let n = self.count();
        self.take(4 * n);
    }
    fn inputs(&mut self, x: bool) {
        for _ in 0..self.count() {
            self.take(32 + 4 + 32);
            match self.type_id(x, 21, 5) {
                5 => {
                    self.u64();
                    self.sig_indices();
                }
                t => panic!("input type {t}"),
            }
        }
    }
    fn base(&mut self, x: bool) {
        self.u32();
        self.take(32);
        self.outputs(x);
        self.inputs(x);
        let n = self.count();
        self.take(n);
    }
    fn validator(&mut self) -> ([u8; 20], u64, u64, u64) {
        let node = self.take(20).try_into().unwrap();
        let (s, e, w) = (self.u64(), self.u64(), self.u64());
        assert!(s < e);
        (node, s, e, w)
    }
    fn auth(&mut self) {
        assert_eq!(self.u32(), 10);
        self.sig_indices();
    }
    fn owner(&mut self) -> Vec<[u8; 20]> {
        assert_eq!(self.u32(), 11);
        self.owners()
    }
    fn credentials(&mut self) {
        for _ in 0..self.count() {
            assert_eq!(self.u32(), 9);
            let n = self.count();
            self.take(65 * n);
        }
    }

    fn p_tx(&mut self) -> TxSpan {
        let start = self.p;
        let type_id = self.u32();
        let (mut validator, mut reward_addresses) = (None, Vec::new());
        if ![19, 20].contains(&type_id) {
            self.base(false);
        }
        match type_id {
            12 | 14 => {
                validator = Some(self.validator());
                self.outputs(false);
                reward_addresses = self.owner();
                if type_id == 12 {
                    self.u32();
                }
            }
            13 => {
                validator = Some(self.validator());
                self.take(32);
                self.auth();
            }
            15 => {
                self.take(32);
                let n = self.u16() as usize;
                std::str::from_utf8(self.take(n)).expect("utf-8 chain name");
                self.take(32);
                let n = self.count();
                self.take(32 * n);
                let n = self.count();
                self.take(n);
                self.auth();
            }
            16 => {
                self.owner();
            }
            17 => {
                self.take(32);
                self.inputs(false);
            }
            18 => {
                self.take(32);
                self.outputs(false);
            }
            19 => {
                self.u64();
            }
            20 => {
                self.take(32);
            }
            23 => {
                self.take(20 + 32);
                self.auth();
            }
            25 => {
                validator = Some(self.validator());
                self.take(32);
                match self.u32() {
                    27 => {}
                    28 => {
                        self.take(48 + 96);
                    }
                    t => panic!("signer {t}"),
                }
                self.outputs(false);
                reward_addresses = self.owner();
                self.owner();
                self.u32();
            }
            26 => {
                validator = Some(self.validator());
                self.take(32);
                self.outputs(false);
                reward_addresses = self.owner();
            }
            33 => {
                self.take(32);
                self.auth();
                self.owner();
            }
            34 => {}
            35 => {
                self.take(32 + 32);
                let n = self.count();
                self.take(n);
                for _ in 0..self.count() {
                    let n = self.count();
                    self.take(n);
                    self.u64();
                    self.u64();
                    self.take(48 + 96);
                    for _ in 0..2 {
                        self.u32();
                        let n = self.count();
                        self.take(20 * n);
                    }
                }
                self.auth();
            }
            t => panic!("P tx type {t}"),
        }
        self.credentials();
        TxSpan { type_id, start, end: self.p, validator, reward_addresses }
    }

    fn x_tx(&mut self) -> TxSpan {
        let start = self.p;
        let type_id = self.u32();
        self.base(true);
        match type_id {
            0 => {}
            1 => {
                for _ in 0..2 {
                    let n = self.u16() as usize;
                    std::str::from_utf8(self.take(n)).expect("utf-8");
                }
                assert!(self.u8() <= 32);
                for _ in 0..self.count() {
                    assert_eq!(self.u32(), 0, "secp256k1fx index");
                    for _ in 0..self.count() {
                        self.output(true);
                    }
                }
            }
            2 => {
                for _ in 0..self.count() {
                    self.take(32);
                    let n = self.count();
                    self.take(36 * n);
                    assert_eq!(self.u32(), 8, "secp MintOperation");
                    self.sig_indices();
                    self.owners();
                    self.u64();
                    self.owners();
                }
            }
            3 => {
                self.take(32);
                self.inputs(true);
            }
            4 => {
                self.take(32);
                self.outputs(true);
            }
            t => panic!("X tx type {t}"),
        }
        self.credentials();
        TxSpan { type_id, start, end: self.p, validator: None, reward_addresses: Vec::new() }
    }

    fn done(&self) {
        assert_eq!(self.p, self.b.len(), "trailing bytes");
    }
}

/// Walks a P-chain block: `(block typeID, height, txs)`.
pub fn p_block(bytes: &[u8]) -> (u32, u64, Vec<TxSpan>) {
    let mut r = R { b: bytes, p: 0 };
    assert_eq!(r.u16(), 0);
    let t = r.u32();
    let mut txs = Vec::new();
    let height;
    match t {
        0..=4 => {
            r.take(32);
            height = r.u64();
            match t {
                0 | 4 => txs.push(r.p_tx()),
                3 => {
                    for _ in 0..r.count() {
                        txs.push(r.p_tx());
                    }
                }
                _ => {}
            }
        }
        29 => {
            r.u64();
            for _ in 0..r.count() {
                txs.push(r.p_tx());
            }
            r.take(32);
            height = r.u64();
            txs.push(r.p_tx());
        }
        30..=32 => {
            r.u64();
            r.take(32);
            height = r.u64();
            if t == 32 {
                for _ in 0..r.count() {
                    txs.push(r.p_tx());
                }
            }
        }
        t => panic!("P block type {t}"),
    }
    r.done();
    (t, height, txs)
}

/// Walks a standalone signed X tx (codec version first).
pub fn x_tx(bytes: &[u8]) -> TxSpan {
    let mut r = R { b: bytes, p: 0 };
    assert_eq!(r.u16(), 0);
    let span = r.x_tx();
    r.done();
    span
}

/// Walks an X StandardBlock: `(height, time, txs)`.
pub fn x_block(bytes: &[u8]) -> (u64, u64, Vec<TxSpan>) {
    let mut r = R { b: bytes, p: 0 };
    assert_eq!(r.u16(), 0);
    assert_eq!(r.u32(), 20);
    r.take(32);
    let (height, time) = (r.u64(), r.u64());
    assert_eq!(r.take(32), &[0u8; 32], "merkle root");
    let txs = (0..r.count()).map(|_| r.x_tx()).collect();
    r.done();
    (height, time, txs)
}
