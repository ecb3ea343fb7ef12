// PasswordField, SwitchField and TextAreaField are imported from their own files
// ('@/components/form/password-field' …): through this index they would join the chunk of every form.
export { CheckboxField, Field, FormErrors, SelectField, type SelectOption } from './field';
export { describeField, type FieldDescription } from './field-description';
export { SubmitButton } from './submit-button';
export { focusFirstError, useErrorFocus } from './use-error-focus';
