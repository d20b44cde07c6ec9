package dev.benchplan.plan;

import java.lang.reflect.Constructor;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.bean.PropertyValueBuffer;
import tools.jackson.databind.introspect.AnnotatedConstructor;
import tools.jackson.databind.module.SimpleModule;

/**
 * Speed device (docs/readme/analyze.md, "What each speed device buys"): builds records through
 * their constructor by reflection instead of Jackson 3's {@code MethodHandle.invokeWithArguments},
 * whose first call per constructor type spins method-handle adapters in the interpreter. A
 * constructor that throws is called again through Jackson's own path, so errors read as before.
 */
final class ReflectiveCreators {
  private ReflectiveCreators() {}

  static SimpleModule module() {
    return new SimpleModule("benchplan-reflective-creators") {
      @Override
      public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.addValueInstantiators(
            new ValueInstantiators.Base() {
              @Override
              public ValueInstantiator modifyValueInstantiator(
                  DeserializationConfig config,
                  BeanDescription.Supplier beanDesc,
                  ValueInstantiator defaultInstantiator) {
                return beanDesc.isRecordType()
                    ? new Reflective(defaultInstantiator)
                    : defaultInstantiator;
              }
            });
      }
    };
  }

  private static final class Reflective extends ValueInstantiator.Delegating {
    private static final long serialVersionUID = 1L;

    Reflective(ValueInstantiator delegate) {
      super(delegate);
    }

    @Override
    public Object createFromObjectWith(
        DeserializationContext ctxt, SettableBeanProperty[] props, PropertyValueBuffer buffer) {
      return createFromObjectWith(ctxt, buffer.getParameters(ctxt, props));
    }

    @Override
    public Object createFromObjectWith(DeserializationContext ctxt, Object[] args) {
      if (delegate().getWithArgsCreator() instanceof AnnotatedConstructor creator) {
        Constructor<?> constructor = creator.getAnnotated();
        if (constructor.trySetAccessible()) {
          try {
            return constructor.newInstance(args);
          } catch (ReflectiveOperationException | RuntimeException e) {
            // fall through: Jackson's own call, with its error wrapping
          }
        }
      }
      return delegate().createFromObjectWith(ctxt, args);
    }
  }
}
