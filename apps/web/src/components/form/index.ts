export {
  CheckboxField,
  Field,
  FormErrors,
  PasswordField,
  SelectField,
  SwitchField,
  TextAreaField,
  type SelectOption,
} from './field';
export { describeField, type FieldDescription } from './field-description';
export { SubmitButton } from './submit-button';
export { focusFirstError, useErrorFocus } from './use-error-focus';
