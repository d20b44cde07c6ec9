package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.benchplan.testing.PlanFixture;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Records read with the reflective creators equal those Jackson builds, and fail the same way. */
class ReflectiveCreatorsTest {
  /** A record whose constructor refuses a value, as the plan's records do. */
  record Point(int concurrency, List<String> labels) {
    Point {
      if (concurrency < 1) {
        throw new IllegalArgumentException("concurrency must be >= 1, got " + concurrency);
      }
    }
  }

  private static final JsonMapper WITH =
      JsonMapper.builder().addModule(ReflectiveCreators.module()).build();
  private static final JsonMapper WITHOUT = JsonMapper.builder().build();

  @Test
  void aPlanReadsAsWithJacksonsOwnCreators() {
    ObjectNode json = PlanFixture.recipeProxy().json();
    BenchmarkPlan plan = PlanJson.read(json, BenchmarkPlan.class);
    BenchmarkPlan jacksons =
        JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build()
            .readerFor(BenchmarkPlan.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .readValue(json);
    assertThat(plan).isEqualTo(jacksons);
    assertThat(PlanJson.tree(plan)).isEqualTo(PlanJson.tree(jacksons));
  }

  @Test
  void sameRecordAsJacksonsOwnCreator() {
    String json = "{\"concurrency\": 4, \"labels\": [\"a\", \"b\"]}";
    assertThat(WITH.readValue(json, Point.class))
        .isEqualTo(WITHOUT.readValue(json, Point.class))
        .isEqualTo(new Point(4, List.of("a", "b")));
  }

  @Test
  void aRefusingConstructorFailsWithJacksonsOwnMessage() {
    String json = "{\"concurrency\": 0, \"labels\": []}";
    Throwable with = catchThrowable(() -> WITH.readValue(json, Point.class));
    Throwable without = catchThrowable(() -> WITHOUT.readValue(json, Point.class));
    assertThat(with).isNotNull().hasSameClassAs(without);
    assertThat(with.getMessage())
        .isEqualTo(without.getMessage())
        .contains("concurrency must be >= 1, got 0");
  }

  @Test
  void aMissingPrimitiveFailsAsWithoutTheDevice() {
    String json = "{\"labels\": null}";
    Throwable with = catchThrowable(() -> WITH.readValue(json, Point.class));
    Throwable without = catchThrowable(() -> WITHOUT.readValue(json, Point.class));
    assertThat(with == null ? null : with.getMessage())
        .isEqualTo(without == null ? null : without.getMessage());
  }
}
