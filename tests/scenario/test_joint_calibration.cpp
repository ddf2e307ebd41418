// `sonicsim calibrate --spec`: a joint calibration that must refuse what its data cannot separate, and a
// prediction whose interval carries the seeds' spread (tests/data/joint_calibration.yaml).
#include "simulate.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

TEST_CASE("calibrate --spec: two parameters seen only through their ratio are fitted but not adopted") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_joint_calibration";
  std::filesystem::remove_all(dir);
  const std::string root = SONICSIM_SOURCE_DIR;
  const auto result = sonicsim::testing::run_sonicsim(
      "calibrate --spec " + root + "/tests/data/joint_calibration.yaml -j 2 --out " + dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::ifstream in(dir / "calibration.json");
  const auto json = nlohmann::json::parse(in);
  const auto& speed = json["parameters"][0];
  const auto& other = json["parameters"][1];
  // The direct level is 4 threads / ((other + 96.4 ms) / speed): only the ratio is measured, so the two are
  // correlated near +1 and neither is adopted.
  CHECK(speed["correlations"]["other_modules_mean"].get<double>() > 0.95);
  CHECK_FALSE(speed["separable"].get<bool>());
  CHECK_FALSE(speed["adopted"].get<bool>());
  CHECK_FALSE(other["adopted"].get<bool>());
  CHECK(speed["not_adopted_because"].get<std::string>().find("not separable from other_modules_mean") == 0);
  CHECK(result.output.find("NOT ADOPTED: not separable") != std::string::npos);
  // The fit asks for some parameter vectors more than once (the forward differences' centre is the point just
  // evaluated; the covariance's Jacobian is taken at the answer): those series runs are not simulated again
  // (the same answer: tests/unit and the speed page's byte-identical check).
  const auto reuse = result.output.find("series runs made, ");
  REQUIRE(reuse != std::string::npos);
  CHECK(std::stoi(result.output.substr(reuse + 18)) > 0);
  // The fit still brings the level to 4.17 (from 4.03 at the start): the ratio is measured.
  const auto& points = json["series"][0]["points"];
  for (const auto& point : points)
    CHECK(point["after"].get<double>() == doctest::Approx(4.17).epsilon(0.02));
  CHECK(points[0]["before"].get<double>() == doctest::Approx(4.03).epsilon(0.02));
  // The prediction is made at the values held (the parameters were not adopted), so its interval is the
  // seeds' alone: no calibration part.
  const auto& prediction = json["predictions"][0];
  CHECK(prediction["id"] == "gain_at_8_jobs");
  CHECK(prediction["calibration_se"].get<double>() == 0.0);
  CHECK(prediction["seed_se"].get<double>() > 0.0);
  // Two seeds: the seeds' part is Student's t with 1 degree of freedom (12.706) times their standard error.
  CHECK(prediction["settings_half_width"].get<double>() ==
        doctest::Approx(12.706 * prediction["seed_se"].get<double>()).epsilon(1e-3));
  // The second prediction is another reading of the first (`reading_of`): the answer's one interval holds
  // both spans (each over the values held at the parameters' bounds, as neither is adopted).
  const auto& reading = json["predictions"][1];
  REQUIRE(json["answers"].size() == 1);
  const auto& answer = json["answers"][0];
  CHECK(answer["id"] == "gain_at_8_jobs");
  CHECK(answer["interval95"][0].get<double>() ==
        doctest::Approx(std::min(prediction["span"][0].get<double>(), reading["span"][0].get<double>())));
  CHECK(answer["interval95"][1].get<double>() ==
        doctest::Approx(std::max(prediction["span"][1].get<double>(), reading["span"][1].get<double>())));
  // Its assumptions ranked by how far each moves it, largest first; the readings' is one of them, its ends
  // the two readings' values.
  const auto& ranked = answer["assumptions"];
  REQUIRE(ranked.size() >= 3);
  for (std::size_t i = 1; i < ranked.size(); ++i)
    if (!ranked[i]["swing"].is_null() && !ranked[i - 1]["swing"].is_null())
      CHECK(ranked[i - 1]["swing"].get<double>() >= ranked[i]["swing"].get<double>());
  const auto is_reading = [](const nlohmann::json& a) { return a["kind"] == "reading"; };
  const auto readings = std::find_if(ranked.begin(), ranked.end(), is_reading);
  REQUIRE(readings != ranked.end());
  CHECK((*readings)["at_low"].get<double>() ==
        doctest::Approx(std::min(prediction["value"].get<double>(), reading["value"].get<double>())));
  CHECK((*readings)["at_high"].get<double>() ==
        doctest::Approx(std::max(prediction["value"].get<double>(), reading["value"].get<double>())));
  // The unknown no series measures (DeepTau's capacity, 0.5 to 1.1): both readings are also made at its two
  // ends, and the answer's ranking holds it with the ends of the first reading's.
  const auto unknown = std::find_if(ranked.begin(), ranked.end(), [](const nlohmann::json& a) {
    return a["kind"] == "held" && a["name"].get<std::string>().find("DeepTau's capacity") == 0;
  });
  REQUIRE(unknown != ranked.end());
  CHECK((*unknown)["pinned_by"] == "a short scan of DeepTau on the production T4");
  // (The two parameters, not adopted, are held at their bounds too: four entries before the unknown's two.)
  const auto unknown_ends = [](const nlohmann::json& p) {
    std::vector<nlohmann::json> ends;
    for (const auto& h : p["held"])
      if (h["key"] == "DeepTau's capacity against its files") ends.push_back(h);
    return ends;
  };
  for (const auto& p : {prediction, reading}) {
    const auto ends = unknown_ends(p);
    REQUIRE(ends.size() == 2);
    CHECK(ends[0]["value"].get<double>() == 0.5);
    CHECK(ends[1]["value"].get<double>() == 1.1);
    for (const auto& h : ends) {
      CHECK(h["prediction"].get<double>() >= answer["interval95"][0].get<double>());
      CHECK(h["prediction"].get<double>() <= answer["interval95"][1].get<double>());
    }
  }
  const double at_half = unknown_ends(prediction)[0]["prediction"].get<double>();
  const double at_1_1 = unknown_ends(prediction)[1]["prediction"].get<double>();
  CHECK((*unknown)["at_low"].get<double>() == doctest::Approx(std::min(at_half, at_1_1)));
  CHECK((*unknown)["at_high"].get<double>() == doctest::Approx(std::max(at_half, at_1_1)));
  CHECK(result.output.find("the answers: each prediction's value and its one 95 % interval") !=
        std::string::npos);
  CHECK(result.output.find("to pin the first:") != std::string::npos);
  CHECK(std::filesystem::exists(dir / "predictions.md"));
}

namespace {

// tests/data/joint_calibration.yaml with `line` inserted before `before` (its parameter's "lower: 0.8"),
// written to a temporary directory; the spec's paths made absolute (the copy lives elsewhere). Returns
// calibrate's result.
sonicsim::testing::CommandResult calibrate_edited_spec(const std::string& name, const std::string& line,
                                                       const std::string& before = "    lower: 0.8") {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::create_directories(dir);
  std::ifstream good(std::string(SONICSIM_SOURCE_DIR) + "/tests/data/joint_calibration.yaml");
  std::string text((std::istreambuf_iterator<char>(good)), std::istreambuf_iterator<char>());
  text.insert(text.find(before), line);
  const std::string root = SONICSIM_SOURCE_DIR;
  for (const std::string folder : {"configs/", "tests/data/"})
    for (auto p = text.find(" " + folder); p != std::string::npos; p = text.find(" " + folder, p + 1))
      text.replace(p + 1, folder.size(), root + "/" + folder);
  {
    std::ofstream bad(dir / "spec.yaml");
    bad << text;
  }
  auto result = sonicsim::testing::run_sonicsim("calibrate --spec " + (dir / "spec.yaml").string() +
                                                " --out " + (dir / "out").string());
  std::filesystem::remove_all(dir);
  return result;
}

} // namespace

TEST_CASE("calibrate --spec: a spec naming a series that is not in it is refused at its line") {
  const auto result = calibrate_edited_spec("sonicsim_joint_bad", "    series: [nowhere]\n");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("spec.yaml:") != std::string::npos);
  CHECK(result.output.find("no series 'nowhere'") != std::string::npos);
}

TEST_CASE("calibrate --spec: an assumed value outside the parameter's bounds is refused at its line") {
  const auto result = calibrate_edited_spec("sonicsim_joint_bad_assumed", "    assumed: 99\n");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("spec.yaml:") != std::string::npos);
  CHECK(result.output.find("assumed") != std::string::npos);
  CHECK(result.output.find("a value within the bounds") != std::string::npos);
}

TEST_CASE("calibrate --spec: a prediction's set naming no parameter of the spec is refused at its line") {
  const auto result = calibrate_edited_spec(
      "sonicsim_joint_bad_prediction_set",
      "    set: {platform.nowhere: [\"platform.server_groups.t4.devices.model_switch_time={}ms\"]}\n",
      "    replications: 2");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("spec.yaml:") != std::string::npos);
  CHECK(result.output.find("a parameter of this spec") != std::string::npos);
}

TEST_CASE("calibrate --spec: a prediction read as another of a prediction the spec does not have is refused "
          "at its line") {
  const auto result = calibrate_edited_spec("sonicsim_joint_bad_reading_of", "    reading_of: nowhere\n",
                                            "    replications: 2");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("spec.yaml:") != std::string::npos);
  CHECK(result.output.find("reading_of") != std::string::npos);
  CHECK(result.output.find("the id of an earlier prediction of this spec (none is 'nowhere')") !=
        std::string::npos);
}

TEST_CASE(
    "calibrate --spec: a series' points name rows of its data, each refused at its line when not there") {
  // points: [X, ...] keeps only those rows (one measurement of a scan): 7 jobs is not a row of the series.
  const auto result =
      calibrate_edited_spec("sonicsim_joint_points", "    points: [7]\n", "    why_sd: the parity");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("series[0].points[0]") != std::string::npos);
  CHECK(result.output.find("an x value of a row of series direct_purdue") != std::string::npos);
}

TEST_CASE("calibrate --spec: a reading that names its own measurement to pin it is refused at its line") {
  // The prediction of its own names what chooses between its readings; a reading naming one would be a
  // second answer to the same question.
  const auto result = calibrate_edited_spec("sonicsim_joint_reading_pinned_by", "    pinned_by: a scan\n",
                                            "    reading_of: gain_at_8_jobs");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("predictions[1].pinned_by") != std::string::npos);
  CHECK(
      result.output.find("no pinned_by on a reading: the prediction it is a reading of ('gain_at_8_jobs')") !=
      std::string::npos);
}

TEST_CASE(
    "calibrate --spec: an unknown naming a reading instead of the prediction it reads is refused at its "
    "line") {
  const auto result = calibrate_edited_spec(
      "sonicsim_joint_unknown_reading",
      "  - {key: other, set: [\"models.deepmet.throughput.T4.scale={}\"], lower: 0.5, upper: 1, assumed: 1,\n"
      "     predictions: [gain_at_8_jobs_limit_10], why_range: a test}\n",
      "predictions:\n  - id: gain_at_8_jobs");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("unknowns[1].predictions[0]") != std::string::npos);
  CHECK(result.output.find("gain_at_8_jobs_limit_10 is a reading of gain_at_8_jobs") != std::string::npos);
}

TEST_CASE("calibrate --spec: a series whose reference is not another series' direct level is refused at its "
          "line") {
  // The only series measures the direct level itself: it names itself, and no other series could serve.
  const auto result = calibrate_edited_spec("sonicsim_joint_bad_reference", "    reference: direct_purdue\n",
                                            "    why_sd: the parity");
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("spec.yaml:28:") != std::string::npos);
  CHECK(result.output.find("series[0].reference") != std::string::npos);
  CHECK(result.output.find("another series of this spec measuring direct_events_per_s_per_job (there is "
                           "none)") != std::string::npos);
}

TEST_CASE("calibrate --predict-from: a calibration.json without its held-out points is refused where the "
          "spec's series name direct references") {
  // The crossings' misfit rests on the held-out ratios to the direct levels, formed from those points:
  // without them it would fall back to the points' RMS and print other intervals than the fit did.
  const std::string root = SONICSIM_SOURCE_DIR;
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_predict_from_no_held_out";
  std::filesystem::create_directories(dir);
  std::ifstream in(root + "/validation/calibration/cms_miniaod_2024_calibration.json");
  auto json = nlohmann::json::parse(in);
  json["model_form"].erase("held_out");
  std::ofstream(dir / "calibration.json") << json.dump();
  const auto result = sonicsim::testing::run_sonicsim(
      "calibrate --spec " + root + "/validation/calibration/cms_miniaod_2024.yaml --predict-from " +
      (dir / "calibration.json").string() + " --out " + (dir / "out").string());
  std::filesystem::remove_all(dir);
  INFO(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("key model_form") != std::string::npos);
  CHECK(result.output.find("held_out points: this spec's series name direct references") !=
        std::string::npos);
}
