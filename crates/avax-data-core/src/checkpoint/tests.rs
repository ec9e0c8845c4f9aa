use std::path::PathBuf;

use sha2::Digest;

use super::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-checkpoint-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn request(out: &Path, format: &str, limit: u64) -> Request {
    let args = serde_json::json!({"chain": "X/tx", "limit": limit, "page_size": 20});
    Request {
        command: "data blocks".into(),
        format: format.into(),
        output: out.display().to_string(),
        args: args.as_object().unwrap().clone(),
        source: None,
    }
}

fn pages(items: u64) -> Position {
    Position::Pages(PagePosition {
        next_page_token: Some("tok".into()),
        page_offset: items % 20,
        items_read: items,
        handed_out: None,
        boundary: None,
    })
}

#[test]
fn a_csv_export_is_saved_resumed_from_its_offset_and_finished() {
    let dir = temp_dir("csv");
    let out = dir.join("x.csv");
    let mut first = ExportCheckpoint::open(request(&out, "csv", 100)).unwrap();
    assert!(first.saved().is_none());
    first.save(pages(0)).unwrap();
    std::fs::write(&out, b"a\n1\n2\n").unwrap();
    first.add_bytes(6, 2, pages(2)).unwrap();
    std::fs::write(&out, b"a\n1\n2\n3 torn").unwrap(); // a chunk being written when it stopped
    drop(first);
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(state_path(&out)).unwrap()).unwrap();
    assert_eq!(saved["version"], 2);
    assert_eq!(saved["kind"], "export");
    assert_eq!(saved["rows_written"], 2);
    assert_eq!(saved["output"], serde_json::json!({"bytes": 6}));
    assert_eq!(saved["position"], serde_json::json!({"next_page_token": "tok", "page_offset": 2, "items_read": 2}));
    assert_eq!(saved["request"]["args"]["limit"], 100);

    let mut again = ExportCheckpoint::open(request(&out, "csv", 100)).unwrap();
    assert_eq!(again.resume().unwrap(), (pages(2), 2));
    assert_eq!(std::fs::read(&out).unwrap(), b"a\n1\n2\n", "the torn chunk is dropped");
    assert!(again.add_bytes(5, 1, pages(3)).is_err(), "an offset behind the output is refused");
    std::fs::write(&out, b"a\n1\n2\n3\n").unwrap();
    again.add_bytes(8, 1, pages(3)).unwrap();
    assert_eq!(again.rows_written(), 3);
    again.finish().unwrap();
    assert!(!state_path(&out).exists() && !suffixed(&out, LOCK_SUFFIX).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_request_a_second_writer_and_a_shorter_output_are_refused() {
    let dir = temp_dir("refused");
    let out = dir.join("x.ndjson");
    let mut first = ExportCheckpoint::open(request(&out, "ndjson", 1000)).unwrap();
    first.save(pages(0)).unwrap();
    std::fs::write(&out, b"{}\n{}\n").unwrap();
    first.add_bytes(6, 2, pages(2)).unwrap();
    match ExportCheckpoint::open(request(&out, "ndjson", 1000)).unwrap_err() {
        Error::DatasetLocked { dir: d, pid, .. } => {
            assert_eq!((d, pid), (out.display().to_string(), Some(std::process::id())))
        }
        other => panic!("not DatasetLocked: {other}"),
    }
    drop(first);
    let err = ExportCheckpoint::open(request(&out, "ndjson", 500)).unwrap().resume().unwrap_err().to_string();
    assert!(err.contains("belongs to another export: --limit 1000 there, 500 here"), "{err}");
    let mut other = request(&out, "csv", 1000);
    other.command = "data transactions".into();
    let err = ExportCheckpoint::open(other).unwrap().resume().unwrap_err().to_string();
    assert!(
        err.contains(r#"command "data blocks" there, "data transactions" here; format "ndjson" there, "csv" here"#),
        "{err}"
    );
    std::fs::write(&out, b"{}").unwrap();
    let err = ExportCheckpoint::open(request(&out, "ndjson", 1000)).unwrap().resume().unwrap_err().to_string();
    assert!(err.contains("holds 2 bytes, fewer than the 6 recorded"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parquet_parts_are_recorded_with_their_digest_and_checked_on_resume() {
    let dir = temp_dir("parts");
    let out = dir.join("x.parquet");
    let parts = suffixed(&out, PARTS_SUFFIX);
    std::fs::create_dir_all(&parts).unwrap();
    let mut first = ExportCheckpoint::open(request(&out, "parquet", 100)).unwrap();
    first.save(pages(0)).unwrap();
    for (n, rows) in [(0, 20), (1, 15)] {
        assert_eq!(first.next_part().unwrap(), part_name(n));
        std::fs::write(parts.join(part_name(n)), format!("part {n}")).unwrap();
        first.add_part(rows, pages(if n == 0 { 20 } else { 35 })).unwrap();
    }
    drop(first);
    std::fs::write(parts.join(part_name(2)), b"written after the checkpoint").unwrap();
    let report = verify_checkpoint(&out).unwrap();
    assert!(report.ok() && report.files.missing.is_empty() && report.files.altered.is_empty());
    assert_eq!(report.files.extra, vec![part_name(2)]);
    assert_eq!(report.checkpoint.rows_written, 35);
    let mut again = ExportCheckpoint::open(request(&out, "parquet", 100)).unwrap();
    assert_eq!(again.resume().unwrap().1, 35);
    assert!(!parts.join(part_name(2)).exists(), "an unlisted part is removed");
    assert_eq!(again.next_part().unwrap(), part_name(2));
    drop(again);

    std::fs::write(parts.join(part_name(1)), b"part X").unwrap(); // same size, other bytes
    let report = verify_checkpoint(&state_path(&out)).unwrap();
    assert!(!report.ok() && report.files.altered == vec![part_name(1)]);
    let err = ExportCheckpoint::open(request(&out, "parquet", 100)).unwrap().resume().unwrap_err().to_string();
    assert!(err.contains("1 part file(s)") && err.contains("first part-000001.parquet"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn torn_foreign_and_old_checkpoints_are_refused_with_the_file_named() {
    let dir = temp_dir("bad");
    let out = dir.join("x.csv");
    let path = state_path(&out);
    let cases: [(&[u8], &str); 6] = [
        (b"{\"version\": 2, \"kind\": \"exp", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (br#"{"version": 1, "command": "index range", "walk": {}}"#, "it has version 1"),
        (br#"{"kind": "export"}"#, "it has no version"),
        (br#"{"version": 2, "kind": "export", "request": 3}"#, "invalid type"),
        (
            br#"{"version": 2, "kind": "export", "request": {"command": "c", "format": "parquet", "output": "o",
                "args": {}}, "position": {"next_index": 5, "end": 9}, "rows_written": 7,
                "output": {"parts": []}, "updated": "t"}"#,
            "its parts hold 0 rows, not the 7 it counts",
        ),
    ];
    for (text, why) in cases {
        std::fs::write(&path, text).unwrap();
        let err = ExportCheckpoint::open(request(&out, "csv", 1)).unwrap_err().to_string();
        assert!(err.contains(&path.display().to_string()) && err.contains(why), "{why}: {err}");
        assert!(err.contains("start the export over"), "{err}");
    }
    assert!(!suffixed(&out, LOCK_SUFFIX).exists(), "a refused open releases its lock");
    let err = verify_checkpoint(&dir.join("none.csv")).unwrap_err().to_string();
    assert!(err.contains("there is no"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn positions_read_back_as_the_walks_wrote_them() {
    let follow: Position = serde_json::from_str(r#"{"next_index": 7, "first": 5, "end": null}"#).unwrap();
    assert_eq!(follow, Position::Index(IndexPosition { next_index: 7, first: Some(5), end: None }));
    assert_eq!(follow.describe(), "next_index=7");
    let text =
        serde_json::to_string(&Position::Index(IndexPosition { next_index: 3, first: None, end: Some(9) })).unwrap();
    assert_eq!(text, r#"{"next_index":3,"end":9}"#);
    assert!(serde_json::from_str::<Position>(r#"{"next_index": 1, "end": 2, "extra": 0}"#).is_err());
    assert!(Position::Index(IndexPosition { next_index: 10, first: None, end: Some(9) }).check().is_err());
    let p = Position::Pages(PagePosition {
        next_page_token: None,
        page_offset: 0,
        items_read: 40,
        handed_out: None,
        boundary: None,
    });
    assert_eq!(p.describe(), "item 40 (walked again from the first page)");
}

/// An interrupted CSV export to `out` of `source`: 2 chunks recorded (`a\n1\n2\n`, 6 bytes).
fn interrupted_csv(out: &Path, source: &Origin) {
    let mut first = ExportCheckpoint::open(request(out, "csv", 100)).unwrap();
    first.set_source(Some(source.clone()));
    first.save(pages(0)).unwrap();
    std::fs::write(out, b"a\n1\n").unwrap();
    first.add_bytes(4, 1, pages(1)).unwrap();
    std::fs::write(out, b"a\n1\n2\n").unwrap();
    first.add_bytes(6, 1, pages(2)).unwrap();
}

#[test]
fn a_resume_against_another_source_is_refused_naming_both() {
    let dir = temp_dir("source");
    let out = dir.join("x.csv");
    let here = Origin::service("https://user:pw@data.example/");
    interrupted_csv(&out, &here);
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(state_path(&out)).unwrap()).unwrap();
    assert_eq!(
        saved["request"]["source"],
        serde_json::json!({"service": {"base_url": "https://***:***@data.example"}})
    );
    let mut other = ExportCheckpoint::open(request(&out, "csv", 100)).unwrap();
    other.set_source(Some(Origin::Network { container0: "2Zx".into() }));
    let err = other.resume().unwrap_err().to_string();
    assert!(
        err.contains(
            "the source: the service at https://***:***@data.example there, the network whose container 0 is 2Zx here"
        ),
        "{err}"
    );
    drop(other);
    assert_eq!(std::fs::read(&out).unwrap(), b"a\n1\n2\n", "nothing touched");
    // the same source resumes; a checkpoint that records none takes the resumed run's
    let mut same = ExportCheckpoint::open(request(&out, "csv", 100)).unwrap();
    same.set_source(Some(here.clone()));
    assert_eq!(same.resume().unwrap().1, 2);
    drop(same);
    let mut unsourced: serde_json::Value = serde_json::from_slice(&std::fs::read(state_path(&out)).unwrap()).unwrap();
    unsourced["request"].as_object_mut().unwrap().remove("source");
    std::fs::write(state_path(&out), unsourced.to_string()).unwrap();
    assert!(read(&state_path(&out)).unwrap().unwrap().request.source.is_none());
    let mut old = ExportCheckpoint::open(request(&out, "csv", 100)).unwrap();
    old.set_source(Some(here.clone()));
    old.resume().unwrap();
    old.save(pages(2)).unwrap();
    assert_eq!(read(&state_path(&out)).unwrap().unwrap().request.source, Some(here));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_zero_filled_by_a_power_loss_is_refused_not_resumed_over() {
    let dir = temp_dir("zeros");
    let out = dir.join("x.csv");
    let source = Origin::Network { container0: "2Zx".into() };
    interrupted_csv(&out, &source);
    let saved = read(&state_path(&out)).unwrap().unwrap();
    assert_eq!(saved.bytes_sha256.as_deref(), Some(hex::encode(sha2::Sha256::digest(b"a\n1\n2\n")).as_str()));
    let resume = || {
        let mut again = ExportCheckpoint::open(request(&out, "csv", 100)).unwrap();
        again.set_source(Some(source.clone()));
        again.resume().map(|(_, rows)| rows).map_err(|e| e.to_string())
    };
    // zeros appended past the recorded bytes (the file grew; its rows never reached the disk)
    std::fs::write(&out, b"a\n1\n2\n\0\0\0\0\0").unwrap();
    let err = resume().unwrap_err();
    assert!(
        err.contains("5 zero byte(s) lie past the 6 bytes recorded") && err.contains("start the export over"),
        "{err}"
    );
    let report = verify_checkpoint(&out).unwrap();
    assert!(!report.ok() && report.files.altered.len() == 1, "{report:?}");
    // the recorded tail overwritten with zeros
    std::fs::write(&out, b"a\n1\n\0\0").unwrap();
    let err = resume().unwrap_err();
    assert!(err.contains("its first 6 bytes are not those the checkpoint recorded"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"a\n1\n\0\0", "refused: not truncated, not resumed over");
    // as written, it resumes, and the digest goes on from there
    std::fs::write(&out, b"a\n1\n2\n").unwrap();
    assert_eq!(resume().unwrap(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pager_position_keeps_the_identities_of_the_last_items_and_an_older_one_still_reads() {
    let older: Position =
        serde_json::from_str(r#"{"next_page_token": "t", "page_offset": 2, "items_read": 12}"#).unwrap();
    let Position::Pages(older) = older else { panic!("a pager's position") };
    assert_eq!(older.handed_out, None);
    let ids = vec![[r#""0xa""#.to_string(), r#""7""#.to_string()], [r#""0xb""#.to_string(), String::new()]];
    let p = Position::Pages(PagePosition { handed_out: Some(ids.clone()), ..older });
    let text = serde_json::to_string(&p).unwrap();
    assert_eq!(
        text,
        r#"{"next_page_token":"t","page_offset":2,"items_read":12,"handed_out":[["\"0xa\"","\"7\""],["\"0xb\"",""]]}"#
    );
    assert_eq!(serde_json::from_str::<Position>(&text).unwrap(), p);
    // a checkpoint holding them is saved and resumed with them
    let dir = temp_dir("handed-out");
    let out = dir.join("b.csv");
    let mut cp = ExportCheckpoint::open(request(&out, "csv", 50)).unwrap();
    std::fs::write(&out, b"a\n").unwrap();
    cp.add_bytes(2, 12, p.clone()).unwrap();
    cp.release();
    let mut again = ExportCheckpoint::open(request(&out, "csv", 50)).unwrap();
    assert_eq!(again.resume().unwrap(), (p, 12));
    let _ = std::fs::remove_dir_all(&dir);
}
